package plan

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"golang.org/x/sync/errgroup"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Permission is one thing the apply needs to be allowed to do.
type Permission struct {
	Verb      string
	Group     string
	Resource  string
	Namespace string
	Name      string
	Why       string // what needs it: "apply", "prune", "the ApplySet parent", "the lock"
	// As is the identity the answer is about, for kubectl's --as and
	// --as-group flags ("" when unknown).
	As       string   `json:"as,omitempty"`
	AsGroups []string `json:"asGroups,omitempty"`
}

// CanI is the kubectl command that shows the answer for p.
func (p Permission) CanI() string {
	res := p.Resource
	if p.Group != "" {
		res += "." + p.Group
	}
	if p.Name != "" {
		res += "/" + p.Name
	}
	cmd := "kubectl auth can-i " + p.Verb + " " + res
	if p.Namespace != "" {
		cmd += " -n " + p.Namespace
	}
	if p.As != "" {
		cmd += " --as " + shellQuote(p.As)
		for _, g := range p.AsGroups {
			cmd += " --as-group " + shellQuote(g)
		}
	}
	return cmd
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:@/=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// MissingPermissions lists every permission the identity lacks, together.
type MissingPermissions []Permission

func (m MissingPermissions) Error() string {
	who := "the identity"
	if len(m) > 0 && m[0].As != "" {
		who = fmt.Sprintf("the identity %q", m[0].As)
	}
	lines := []string{fmt.Sprintf("%s lacks %d permission(s) the apply would need (check each with the command shown):", who, len(m))}
	for _, p := range m {
		lines = append(lines, fmt.Sprintf("  %-28s # %s", p.CanI(), p.Why))
	}
	return strings.Join(lines, "\n")
}

var ssarGVR = schema.GroupVersionResource{Group: "authorization.k8s.io", Version: "v1", Resource: "selfsubjectaccessreviews"}

// checkPermissions asks the API server about each permission and returns
// the ones denied (none when ReadAhead found the identity may do
// everything): what the identity's rules in a namespace grant is
// allowed (grantedByRules), the rest is asked with SelfSubjectAccessReviews,
// concurrently.
func (p *planner) checkPermissions(ctx context.Context, perms []Permission) (MissingPermissions, error) {
	if p.opts.ReadAhead.allowsEverything() {
		return nil, nil // one review for every project of the run said so
	}
	perms = dedupe(perms)
	allowed := p.grantedByRules(ctx, perms)
	errs := make([]error, len(perms))
	var g errgroup.Group
	g.SetLimit(p.opts.Concurrency)
	for i := range perms {
		if allowed[i] {
			continue
		}
		g.Go(func() error {
			pm := perms[i]
			review := &unstructured.Unstructured{Object: map[string]any{
				"apiVersion": "authorization.k8s.io/v1",
				"kind":       "SelfSubjectAccessReview",
				"spec": map[string]any{"resourceAttributes": map[string]any{
					"verb": pm.Verb, "group": pm.Group, "resource": pm.Resource,
					"namespace": pm.Namespace, "name": pm.Name,
				}},
			}}
			res, err := p.c.Dynamic.Resource(ssarGVR).Create(ctx, review, metav1.CreateOptions{})
			if err != nil {
				errs[i] = fmt.Errorf("checking permission to %s %s: %w", pm.Verb, pm.Resource, err)
				return nil
			}
			allowed[i], _, _ = unstructured.NestedBool(res.Object, "status", "allowed")
			return nil
		})
	}
	_ = g.Wait() // every call returns nil: errors are kept per index
	var missing MissingPermissions
	for i, pm := range perms {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if !allowed[i] {
			missing = append(missing, pm)
		}
	}
	return missing, nil
}

// applyPermissions are what applying the targets needs.
func applyPermissions(targets []*target) []Permission {
	var out []Permission
	for _, t := range targets {
		if t.pending {
			continue
		}
		ns := ""
		if t.scoped {
			ns = t.obj.GetNamespace()
		}
		for _, verb := range []string{"get", "list", "create", "patch"} {
			out = append(out, Permission{Verb: verb, Group: t.gvr.Group, Resource: t.gvr.Resource, Namespace: ns, Why: "apply"})
		}
	}
	return out
}

func dedupe(perms []Permission) []Permission {
	seen := map[string]bool{}
	var out []Permission
	for _, p := range perms {
		k := strings.Join([]string{p.Verb, p.Group, p.Resource, p.Namespace, p.Name}, "\x00")
		if !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		if a.Group+a.Resource != b.Group+b.Resource {
			return a.Group+a.Resource < b.Group+b.Resource
		}
		return a.Verb < b.Verb
	})
	return out
}
