package plan

import (
	"cmp"
	"context"
	"fmt"
	"sort"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var namespaceGVR = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}

// MissingNamespaceError says objects go to namespaces that neither exist nor
// are created by the set.
type MissingNamespaceError struct{ Namespaces []string }

func (e *MissingNamespaceError) Error() string {
	var hints []string
	for _, ns := range e.Namespaces {
		hints = append(hints, "kubectl create namespace "+ns)
	}
	return fmt.Sprintf("namespace %s does not exist: create it (%s) or add a Namespace object to the manifests",
		strings.Join(quoteAll(e.Namespaces), ", "), strings.Join(hints, "; "))
}

// checkNamespaces refuses, with one error, a set whose objects go to a
// namespace that does not exist and that the set does not create: the
// dry-run would otherwise fail once per object. A namespace the identity
// may not read is assumed to exist (the dry-run will tell).
//
// A namespace the set creates and that does not exist yet cannot hold a
// dry-run either: its objects are planned as created after it (pending,
// as for a namespace a dependency creates; apply writes Namespaces first).
// The ApplySet parent cannot wait for it, so a set whose parent's
// namespace is such a namespace is refused with what to do.
func (p *planner) checkNamespaces(ctx context.Context, targets []*target) error {
	created := map[string]bool{}
	for ns := range p.opts.Pending.Namespaces {
		created[ns] = true
	}
	own := map[string]bool{} // created by this set
	wanted := map[string]bool{}
	for _, t := range targets {
		if t.ref.Group == "" && t.ref.Kind == "Namespace" {
			created[t.ref.Name], own[t.ref.Name] = true, true
		}
		if t.scoped && t.obj.GetNamespace() != "" {
			wanted[t.obj.GetNamespace()] = true
		}
	}
	var missing []string
	for ns := range wanted {
		if created[ns] && !own[ns] {
			continue
		}
		_, err := p.opts.Namespaces.Get(ctx, ns)
		switch {
		case !apierrors.IsNotFound(err):
		case !own[ns]:
			missing = append(missing, ns)
		case p.opts.ApplySet != nil && cmp.Or(p.opts.ApplySet.Namespace, p.opts.Namespace) == ns:
			return fmt.Errorf("the ApplySet parent %s lives in namespace %q, which this set creates and which does not exist yet: the parent is written before any object, so create the namespace first (kubectl create namespace %s; as Argo CD's CreateNamespace does), or move its Namespace into a project this one dependsOn (docs/projects.md)", p.opts.ApplySet, ns, ns)
		default:
			for _, t := range targets {
				if t.scoped && t.obj.GetNamespace() == ns && !t.pending {
					t.pending, t.waitsFor = true, "Namespace "+ns
				}
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	sort.Strings(missing)
	return &MissingNamespaceError{Namespaces: missing}
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}
