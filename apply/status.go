package apply

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/health"
	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/internal/healthexpr"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/plan"
)

// Status is what `kubeplan status` shows about an ApplySet.
type Status struct {
	ApplySet  string `json:"applyset"`
	Namespace string `json:"namespace"`
	Tooling   string `json:"tooling"`
	Revision  string `json:"revision,omitempty"`
	AppliedAt string `json:"appliedAt,omitempty"` // the last run that wrote an object
	CheckedAt string `json:"checkedAt,omitempty"` // the last run

	Result    string `json:"result,omitempty"`
	LastError string `json:"lastError,omitempty"`
	// LastFailure is why the last run failed (the parent's
	// kubeplan.dev/last-failure): the stage an ordered run stopped at and
	// its health wait's diagnosis; nil after a run that succeeded or
	// failed before its first stage and its wait.
	LastFailure *LastFailure    `json:"lastFailure,omitempty"`
	Members     []health.Result `json:"members"`
	// SecretsSkipped is true when the set has Secret members: status never
	// reads Secrets, so that a read-only identity (the built-in view role)
	// can run it, and they are not listed.
	SecretsSkipped bool `json:"secretsSkipped,omitempty"`
	// Approvals are the approvals and window overrides recorded by the
	// runs that used them (kubeplan.dev/approvals), newest first.
	Approvals []ApprovalRecord `json:"approvals,omitempty"`
	// Pending are the require-approval verdicts the last run found no
	// approval for (kubeplan.dev/pending-approvals): serve withheld what
	// they are about, or the run was refused.
	Pending []guard.Verdict `json:"pendingApprovals,omitempty"`
	// SourceFailing is set while kubeplan serve cannot fetch or read its
	// git source (kubeplan.dev/source-failing): since when, and why.
	SourceFailing *SourceFailing `json:"sourceFailing,omitempty"`
	// Suspended is the set's suspension (kubeplan suspend): who, why,
	// since when; nil when it is not suspended.
	Suspended *plan.Suspension `json:"suspended,omitempty"`
}

// ErrNoApplySet is returned when the parent does not exist yet.
var ErrNoApplySet = errors.New("the ApplySet does not exist yet (nothing was applied to it)")

// ReadStatus reads the parent's record and the health of every member,
// custom resources judged by rules (nil: the built-in health rules). It
// only reads.
func ReadStatus(ctx context.Context, c *kube.Client, as applyset.Parent, rules *healthexpr.Set) (*Status, error) {
	gvr := schema.GroupVersionResource{Version: "v1", Resource: as.Resource()}
	parent, err := c.Dynamic.Resource(gvr).Namespace(as.Namespace).Get(ctx, as.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, fmt.Errorf("%s in namespace %s: %w", as, as.Namespace, ErrNoApplySet)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the ApplySet parent %s: %w", as, err)
	}
	st, err := as.Read(parent.GetLabels(), parent.GetAnnotations())
	if err != nil {
		return nil, err
	}
	a := parent.GetAnnotations()
	s := &Status{ApplySet: as.String(), Namespace: as.Namespace, Tooling: st.Tooling, Revision: a[AnnotationRevision],
		AppliedAt: a[AnnotationAppliedAt], CheckedAt: a[AnnotationCheckedAt], Result: a[AnnotationResult], LastError: a[AnnotationLastError],
		LastFailure: ReadLastFailure(a[AnnotationLastFailure])}
	readApprovals(a, s)
	s.SourceFailing = ReadSourceFailing(a[AnnotationSourceFailing])
	s.Suspended = plan.ParseSuspension(a[plan.AnnotationSuspended])
	if s.Result == resultRunning {
		s.Result = runningResult(ctx, c, as)
	}
	kinds := st.GroupKinds[:0:0]
	for _, gk := range st.GroupKinds {
		if gk.Group == "" && gk.Kind == "Secret" {
			s.SecretsSkipped = true
			continue
		}
		kinds = append(kinds, gk)
	}
	st.GroupKinds = kinds
	members, err := plan.ListMembers(ctx, c, as, st)
	if err != nil {
		return nil, err
	}
	refs := make([]plan.Ref, 0, len(members))
	for _, m := range members {
		gvk := m.GroupVersionKind()
		refs = append(refs, plan.Ref{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind, Namespace: m.GetNamespace(), Name: m.GetName()})
	}
	sort.Slice(refs, func(i, j int) bool { return refs[i].Namespace+refs[i].String() < refs[j].Namespace+refs[j].String() })
	s.Members = health.Assess(ctx, c, refs, rules)
	return s, nil
}

// runningResult explains a parent that still says "running": a run that
// holds the lock now is under way; otherwise the last run could not record
// its result (it crashed, or lost the lock or the connection at its end).
func runningResult(ctx context.Context, c *kube.Client, as applyset.Parent) string {
	lease, err := c.Dynamic.Resource(lockLeaseGVR).Namespace(as.Namespace).Get(ctx, LockName(as), metav1.GetOptions{})
	if err == nil {
		if holder, expires := lockLeaseState(lease); holder != "" && time.Now().Before(expires) {
			return fmt.Sprintf("running (an apply holds the lock: %s, until %s)", holder, expires.UTC().Format(time.RFC3339))
		}
	}
	return "unknown (last record failed)"
}
