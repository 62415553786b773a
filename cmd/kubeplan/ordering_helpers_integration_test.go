package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/plan"
)

// orderingFixtures is testdata/ordering, the two repositories laid out as
// an Argo CD and a kapp user lays them out.
var orderingFixtures = filepath.Join("..", "..", "testdata", "ordering")

// auditCluster starts a testcluster of t's own with the API server's audit
// log on (testcluster/README.md, "The audit log").
func auditCluster(t *testing.T) *testkube.Cluster {
	t.Helper()
	t.Setenv("TESTCLUSTER_AUDIT_LOG", "1")
	c := testkube.Start(t)
	if _, err := os.Stat(filepath.Join(c.Dir(), "audit.log")); err != nil {
		t.Fatalf("the testcluster wrote no audit log (%v): rebuild it with `make testcluster`", err)
	}
	return c
}

// auditEvent is an entry of the testcluster's audit log.
type auditEvent = testkube.AuditEvent

// readAudit reads the cluster's audit log, in the order the API server
// answered the requests.
func readAudit(t *testing.T, c *testkube.Cluster) []auditEvent {
	t.Helper()
	events, err := testkube.ReadAudit(filepath.Join(c.Dir(), "audit.log"), 0)
	if err != nil {
		t.Fatal(err)
	}
	return events
}

// kubeplanWrites are the writes of kubeplan (the in-process CLI, as the
// admin user; the simulated node shares that user but not its user
// agent) to named objects in ns or cluster-scoped ones (not access
// reviews), from the audit log entries after skip.
func kubeplanWrites(events []auditEvent, ns string, skip int) []auditEvent {
	var out []auditEvent
	for _, e := range events[min(skip, len(events)):] {
		if !e.KubeplanWrite() || (e.ObjectRef.Namespace != "" && e.ObjectRef.Namespace != ns) {
			continue
		}
		out = append(out, e)
	}
	return out
}

// wantStage is one stage an apply must run, in order: its name (as
// internal/stage names it) and its members as "resource/name".
type wantStage struct {
	name    string
	members []string
}

// checkPlanStages checks the stages of a saved plan against want (the
// stages that run) and onFail (the SyncFail stage, nil when none).
func checkPlanStages(t *testing.T, planFile string, want []wantStage, onFail *wantStage) {
	t.Helper()
	body, err := os.ReadFile(planFile)
	if err != nil {
		t.Fatal(err)
	}
	var p plan.Plan
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatal(err)
	}
	var got []wantStage
	var gotFail []wantStage
	for _, s := range p.Stages {
		var members []string
		for _, m := range s.Members {
			members = append(members, refKey(m))
		}
		slices.Sort(members)
		if s.OnFail {
			gotFail = append(gotFail, wantStage{s.Name, members})
			continue
		}
		got = append(got, wantStage{s.Name, members})
	}
	norm := func(ws []wantStage) string {
		var b strings.Builder
		for _, w := range ws {
			m := slices.Clone(w.members)
			slices.Sort(m)
			b.WriteString(w.name + ": " + strings.Join(m, ", ") + "\n")
		}
		return b.String()
	}
	if g, w := norm(got), norm(want); g != w {
		t.Errorf("plan's stages:\n%s\nwant:\n%s", g, w)
	}
	var wantFail []wantStage
	if onFail != nil {
		wantFail = []wantStage{*onFail}
	}
	if g, w := norm(gotFail), norm(wantFail); g != w {
		t.Errorf("plan's SyncFail stages:\n%s\nwant:\n%s", g, w)
	}
}

// refKey is "resource/name" of a plan.Ref; a custom resource's Ref may
// lack its resource when its CRD did not exist at plan time.
func refKey(r plan.Ref) string {
	res := r.Resource
	if res == "" {
		res = strings.ToLower(r.Kind) + "s"
		if strings.HasSuffix(r.Kind, "y") {
			res = strings.ToLower(strings.TrimSuffix(r.Kind, "y")) + "ies"
		}
	}
	return res + "/" + r.Name
}

// checkWriteOrder checks from the API server's audit log that every write
// of a stage's members came after every write of the stages before it,
// and returns the first and last write of each stage (zero when the
// stage wrote nothing, e.g. unchanged objects). writes are kubeplan's.
func checkWriteOrder(t *testing.T, writes []auditEvent, stages []wantStage) (first, last []time.Time) {
	t.Helper()
	stageOf := map[string]int{}
	for i, s := range stages {
		for _, m := range s.members {
			stageOf[m] = i
		}
	}
	first, last = make([]time.Time, len(stages)), make([]time.Time, len(stages))
	highest, highestAt := -1, ""
	for i, e := range writes {
		s, ok := stageOf[e.Key()]
		if !ok {
			continue
		}
		if s < highest {
			t.Errorf("request %d, %s %s (stage %q) came after a write of stage %q (%s)", i, e.Verb, e.Key(), stages[s].name, stages[highest].name, highestAt)
		}
		if s > highest {
			highest, highestAt = s, e.Verb+" "+e.Key()
		}
		if first[s].IsZero() {
			first[s] = e.Received
		}
		last[s] = e.Done
	}
	return first, last
}

// writtenKeys are the "resource/name" of the writes, in order, with the verb.
func writtenKeys(writes []auditEvent) []string {
	var out []string
	for _, e := range writes {
		out = append(out, e.Verb+" "+e.Key())
	}
	return out
}

// creationOrder checks that objects of each stage were created (their
// creationTimestamp, whole seconds) no earlier than those of the stages
// before. live maps "resource/name" to its creationTimestamp; objects
// missing from it (deleted hooks, pre-existing ones) are skipped.
func creationOrder(t *testing.T, live map[string]time.Time, stages []wantStage) {
	t.Helper()
	var latest time.Time
	var latestKey string
	for _, s := range stages {
		var stageLatest time.Time
		var stageLatestKey string
		for _, m := range s.members {
			ts, ok := live[m]
			if !ok {
				continue
			}
			if ts.Before(latest) {
				t.Errorf("%s (stage %q) was created at %s, before %s of an earlier stage (%s)", m, s.name, ts.Format(time.RFC3339), latestKey, latest.Format(time.RFC3339))
			}
			if ts.After(stageLatest) {
				stageLatest, stageLatestKey = ts, m
			}
		}
		if stageLatest.After(latest) {
			latest, latestKey = stageLatest, stageLatestKey
		}
	}
}

// creationTimes reads the creationTimestamp of the objects of the given
// resources in ns (and of cluster-scoped ones with ns "").
func creationTimes(t *testing.T, c *testkube.Cluster, ns string, resources ...string) map[string]time.Time {
	t.Helper()
	out := map[string]time.Time{}
	for _, r := range resources {
		args := []string{"get", r, "-o", "json"}
		if ns != "" {
			args = append(args, "-n", ns)
		}
		var list struct {
			Items []struct {
				Metadata struct {
					Name              string    `json:"name"`
					CreationTimestamp time.Time `json:"creationTimestamp"`
				} `json:"metadata"`
			} `json:"items"`
		}
		if err := json.Unmarshal([]byte(c.Kubectl(t, args...)), &list); err != nil {
			t.Fatalf("kubectl get %s: %v", r, err)
		}
		plural := strings.SplitN(r, ".", 2)[0]
		for _, it := range list.Items {
			out[plural+"/"+it.Metadata.Name] = it.Metadata.CreationTimestamp
		}
	}
	return out
}
