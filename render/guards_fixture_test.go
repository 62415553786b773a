package render

import (
	"fmt"
	"time"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/health"
	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/plan"
)

// hostileMessage is a verdict message with what every view must escape:
// markdown, a table pipe, a mention, a reference, HTML, a terminal escape
// and a newline.
const hostileMessage = "LoadBalancer <b>Services</b> | `are` *not* allowed, ask @ops in #12\x1b[31m\nsecond line"

// pvcVerdict waits for an approval: the built-in rule over a PVC's prune.
func pvcVerdict() guard.Verdict {
	return guard.Verdict{Rule: guard.ProtectPVC, Outcome: guard.RequireApproval, Builtin: true,
		Message: "pruning a PersistentVolumeClaim deletes its volume", Object: "persistentvolumeclaim/data",
		Namespace: "store", Action: "prune", Files: []string{"manifests"}}
}

// guardVerdicts are one verdict of each kind, in the order the engine
// returns them: denied, waiting for an approval, approved (a GitHub
// review), warning.
func guardVerdicts() []guard.Verdict {
	return []guard.Verdict{
		{Rule: "no-public-lb", Outcome: guard.Deny, Message: hostileMessage, Object: "service/api", Namespace: "store",
			Action: "replace", At: "kubeplan.yaml:12:5", Files: []string{"manifests/api.yaml"}},
		pvcVerdict(),
		{Rule: guard.MassPrune, Outcome: guard.RequireApproval, Builtin: true, Message: "prunes 6 of 10 members of the set",
			Files: []string{"manifests"},
			Approval: &guard.Approval{Rule: guard.MassPrune, Reason: "tenants moved to shop-eu", Via: "review", By: "@alice",
				PullRequest: 12, At: "2026-12-02T10:00:00Z"}},
		{Rule: "big-change", Outcome: guard.Warn, Message: "more than 5 changes", At: "rules/plan.yaml:3:3"},
	}
}

// closedWindow is a change window closed until Monday morning in Berlin.
func closedWindow() *guard.WindowState {
	return &guard.WindowState{Reason: `deny window "0 22 * * 5" for 58h (Europe/Berlin) is active`,
		Next: time.Date(2026, 12, 7, 8, 0, 0, 0, time.FixedZone("CET", 3600))}
}

// guardPlan is planFixture with the rules' verdicts and a closed window.
func guardPlan() *plan.Plan {
	p := planFixture()
	p.Changes = append(p.Changes, plan.Change{Ref: plan.Ref{Version: "v1", Kind: "PersistentVolumeClaim",
		Resource: "persistentvolumeclaims", Namespace: "store", Name: "data"}, Action: plan.Prune})
	p.Guards = guardVerdicts()
	p.Window = closedWindow()
	return p
}

// approvalRecords are n recorded approvals, newest first, the second a
// window override.
func approvalRecords(n int) []apply.ApprovalRecord {
	var out []apply.ApprovalRecord
	for i := range n {
		r := apply.ApprovalRecord{Approval: guard.Approval{Rule: guard.ProtectPVC, Reason: fmt.Sprintf("volume %d moved to backup", i),
			Via: "review", By: "@alice", PullRequest: 12 - i, At: fmt.Sprintf("2026-12-%02dT10:00:00Z", 20-i)},
			Objects: []string{"persistentvolumeclaim/data"}, Revision: "abc1234def5678abc1234def5678abc1234def56"}
		if i == 1 {
			r = apply.ApprovalRecord{Approval: guard.Approval{Reason: "hotfix \x1b[2J for the outage", Via: "flag", By: "ops",
				At: "2026-12-19T23:00:00Z"}, Window: true, Revision: "abc1234def5678abc1234def5678abc1234def56"}
		}
		out = append(out, r)
	}
	return out
}

// withheldResult is what serve's apply did with a PVC's prune pending:
// the rest applied, the prune withheld, the run's approval recorded.
func withheldResult() *apply.Result {
	return &apply.Result{
		Objects: []apply.ObjectResult{
			obj("Deployment", "apps", "web", apply.Configured),
			{Ref: plan.Ref{Version: "v1", Kind: "PersistentVolumeClaim", Namespace: "store", Name: "data"}, Outcome: apply.Withheld},
			obj("ConfigMap", "", "old", apply.Pruned),
		},
		Approvals: approvalRecords(2),
		Pending:   []guard.Verdict{pvcVerdict()},
	}
}

// guardStatus is a status whose parent records approvals and a pending
// verdict.
func guardStatus(approvals int) *apply.Status {
	return &apply.Status{ApplySet: "configmap/shop", Namespace: "store", Tooling: "kubeplan/v1.2.0",
		Revision: "abc1234", AppliedAt: "2026-12-02T10:00:00Z", CheckedAt: "2026-12-02T10:05:00Z", Result: "ok",
		Members:   []health.Result{{Ref: obj("Deployment", "apps", "web", "").Ref, Status: "Current", Message: "Deployment is available. Replicas: 3"}},
		Approvals: approvalRecords(approvals),
		Pending:   []guard.Verdict{pvcVerdict()},
	}
}
