package guard

import (
	"reflect"
	"testing"
	"time"
)

func TestParseApproval(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Approval
		err  string
	}{
		{"protect-pvc=the data moved to pvc/data-v2", Approval{Rule: "protect-pvc", Reason: "the data moved to pvc/data-v2", Via: "flag"}, ""},
		{"  mass-prune = cleanup after the split = phase 2 ", Approval{Rule: "mass-prune", Reason: "cleanup after the split = phase 2", Via: "flag"}, ""},
		{"protect-pvc", Approval{}, `--approve "protect-pvc": want RULE=REASON, such as --approve protect-pvc='the data moved to the new volume'`},
		{"protect-pvc=  ", Approval{}, `--approve "protect-pvc=  ": want RULE=REASON, such as --approve protect-pvc='the data moved to the new volume'`},
		{"protect pvc=because", Approval{}, `--approve "protect pvc=because": "protect pvc" is not a rule's name: want RULE=REASON with the name a verdict shows, such as protect-pvc`},
		{"=because", Approval{}, `--approve "=because": want RULE=REASON, such as --approve protect-pvc='the data moved to the new volume'`},
	} {
		got, err := ParseApproval(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%q: error %v, want %s", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: %+v %v, want %+v", tc.in, got, err, tc.want)
		}
	}
}

func TestApprove(t *testing.T) {
	s := mustCompile(t, platformGuards)
	vs, err := s.Evaluate(shopPlan(), []Change{stsReplace(), pvcPrune(), nsPrune()})
	if err != nil {
		t.Fatal(err)
	}
	// deny no-critical-prune; require-approval no-statefulset-replace,
	// protect-pvc, protect-namespace; warn prod-cluster-prunes
	byFlag := Approval{Rule: ProtectPVC, Reason: "moved to data-v2", Via: "flag"}
	byLabel := Approval{Rule: ProtectPVC, Reason: "label kubeplan/approved", Via: "label", By: "kubeplan/approved", PullRequest: 42}
	review := Approval{Rule: "no-statefulset-replace", Reason: "approved", Via: "review", By: "@alice", PullRequest: 42}
	pending := Approve(vs, []Approval{byFlag, byLabel, review, {Rule: "no-critical-prune", Reason: "please", Via: "flag"}})
	if len(pending) != 1 || pending[0].Rule != ProtectNamespace {
		t.Fatalf("pending %+v", pending)
	}
	for _, v := range vs {
		switch v.Rule {
		case ProtectPVC:
			if !reflect.DeepEqual(v.Approval, &byFlag) { // the first that names it
				t.Errorf("protect-pvc approval %+v", v.Approval)
			}
		case "no-statefulset-replace":
			if !reflect.DeepEqual(v.Approval, &review) {
				t.Errorf("review approval %+v", v.Approval)
			}
		default:
			// a deny is never approved, a warn needs nothing
			if v.Approval != nil {
				t.Errorf("%s approved by %+v", v.Rule, v.Approval)
			}
		}
	}
	if d := Denied(vs); len(d) != 1 || d[0].Rule != "no-critical-prune" {
		t.Errorf("denied %+v", d)
	}
	// Approving again keeps the first approval.
	if p := Approve(vs, []Approval{{Rule: ProtectNamespace, Reason: "retired", Via: "flag"}, {Rule: ProtectPVC, Reason: "other", Via: "flag"}}); len(p) != 0 {
		t.Errorf("still pending %+v", p)
	}
	if vs[2].Rule != ProtectPVC || vs[2].Approval.Reason != "moved to data-v2" {
		t.Errorf("re-approved: %+v", vs[2])
	}
}

func TestRefusal(t *testing.T) {
	s := mustCompile(t, platformGuards)
	vs, err := s.Evaluate(shopPlan(), []Change{stsReplace(), pvcPrune(), nsPrune()})
	if err != nil {
		t.Fatal(err)
	}
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err) // the package embeds time/tzdata: every zone is there
	}
	r := &Refusal{Denied: Denied(vs), Pending: Approve(vs, nil), Window: &WindowState{
		Reason: `deny window "0 22 * * 5" for 60h (Europe/Berlin) is active until 2026-12-07T10:00:00+01:00`,
		Next:   time.Date(2026, 12, 7, 10, 0, 0, 0, berlin)}}
	want := `refused by guard rules:
  denied by no-critical-prune: objects labelled data-class critical are never pruned by a pipeline (persistentvolumeclaim/data in namespace shop)
  needs approval of no-statefulset-replace: replaces statefulset/db: its pods are recreated (statefulset.apps/db in namespace shop); approve with --approve no-statefulset-replace=REASON
  needs approval of protect-pvc: prunes persistentvolumeclaim/data in namespace shop: the volume's data may be deleted with it; approve with --approve protect-pvc=REASON
  needs approval of protect-namespace: prunes namespace/legacy: every object in the namespace is deleted with it; approve with --approve protect-namespace=REASON
  outside the change windows: deny window "0 22 * * 5" for 60h (Europe/Berlin) is active until 2026-12-07T10:00:00+01:00; opens at 2026-12-07T10:00:00+01:00; override with --outside-window REASON`
	if got := r.Error(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// A plan verdict names no object; an open window says nothing; a
	// window that never opens within a year gives no time.
	r = &Refusal{Pending: []Verdict{{Rule: MassPrune, Outcome: RequireApproval, Message: "prunes 6 of the 10 members of the set (60%)"}},
		Window: &WindowState{Open: true}}
	want = "refused by guard rules:\n  needs approval of mass-prune: prunes 6 of the 10 members of the set (60%); approve with --approve mass-prune=REASON"
	if got := r.Error(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	r = &Refusal{Window: &WindowState{Reason: "no allow window is active"}}
	want = "refused by guard rules:\n  outside the change windows: no allow window is active; override with --outside-window REASON"
	if got := r.Error(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestHas(t *testing.T) {
	s := mustCompile(t, platformGuards) // mass-prune: warn
	for name, want := range map[string]bool{ProtectPVC: true, MassPrune: true, "no-critical-prune": true, "prod-cluster-prunes": true, "protect-pcv": false} {
		if s.Has(name) != want {
			t.Errorf("Has(%q) = %v", name, !want)
		}
	}
	if s := mustCompile(t, "guards: {builtin: {protect-pvc: off}}\n"); s.Has(ProtectPVC) {
		t.Error("a built-in switched off is in the set")
	}
}

func TestSetApprovals(t *testing.T) {
	s := mustCompile(t, "guards:\n  approvals:\n    github: {codeOwners: true, labels: [kubeplan/approved]}\n")
	a := s.Approvals()
	if !a.CodeOwners || !reflect.DeepEqual(a.Labels, []string{"kubeplan/approved"}) {
		t.Errorf("approvals %+v", a)
	}
}
