package plan

import (
	"context"
	"fmt"
	"sort"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
func (p *planner) checkNamespaces(ctx context.Context, targets []*target) error {
	created := map[string]bool{}
	for ns := range p.opts.Pending.Namespaces {
		created[ns] = true
	}
	wanted := map[string]bool{}
	for _, t := range targets {
		if t.ref.Group == "" && t.ref.Kind == "Namespace" {
			created[t.ref.Name] = true
		}
		if t.scoped && t.obj.GetNamespace() != "" {
			wanted[t.obj.GetNamespace()] = true
		}
	}
	var missing []string
	for ns := range wanted {
		if created[ns] {
			continue
		}
		_, err := p.c.Dynamic.Resource(namespaceGVR).Get(ctx, ns, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			missing = append(missing, ns)
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
