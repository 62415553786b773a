package lint

import (
	"fmt"
	"strings"
	"sync"

	"github.com/kubeplan/kubeplan/internal/podrefs"
	"github.com/kubeplan/kubeplan/manifest"
)

// ruleDanglingRef is the info finding for a pod template's reference to a
// Secret, ConfigMap, ServiceAccount or PVC the linted set does not
// provide. Offline, lint cannot know whether the cluster has it; plan
// checks the cluster and warns (plan/refs.go).
const ruleDanglingRef = "dangling-ref"

// refCollector gathers, through Options.Loaded, what the set provides and
// the references it does not provide within the batch that holds them; the
// rest of the set may still provide them (Check drops those at the end).
// Such references are common (a ServiceAccount or Secret made elsewhere),
// so a finding sits at the object's first line and names the field: the
// exact position would parse every such object's position tree, which the
// fast decoder spares lint on large repositories. plan reports them at the
// field itself.
type refCollector struct {
	namespace string // Options.Namespace: where objects without one go
	mu        sync.Mutex
	provided  map[podrefs.Key]bool
	uses      []refUse
}

type refUse struct {
	key     podrefs.Key
	finding Finding
}

func newRefCollector(namespace string) *refCollector {
	return &refCollector{namespace: namespace, provided: map[podrefs.Key]bool{}}
}

// wrap returns a Loaded hook that collects, then calls next.
func (c *refCollector) wrap(next func([]*manifest.Object)) func([]*manifest.Object) {
	return func(objs []*manifest.Object) {
		c.add(objs)
		if next != nil {
			next(objs)
		}
	}
}

func (c *refCollector) ns(o *manifest.Object) string {
	if o.Namespace != "" {
		return o.Namespace
	}
	return c.namespace
}

func (c *refCollector) add(objs []*manifest.Object) {
	// Strings read from a file may share its bytes: everything kept past
	// this batch is cloned, so no file's data stays alive.
	local := map[podrefs.Key]bool{}
	for _, o := range objs {
		for _, k := range podrefs.Provides(o.Group(), o.Kind, c.ns(o), o.Content) {
			local[cloneKey(k)] = true
		}
	}
	var uses []refUse
	for _, o := range objs {
		for _, r := range podrefs.Refs(o.Group(), o.Kind, o.Content) {
			k := podrefs.Key{Kind: r.Kind, Namespace: c.ns(o), Name: r.Name}
			if local[k] {
				continue
			}
			field := fieldPath(r.Path)
			msg := fmt.Sprintf("pods of %s need %s %q (%s), which is not in the manifests linted; it must exist in the cluster (kubeplan plan checks)", o.String(), strings.ToLower(r.Kind), r.Name, field)
			start := o.Start()
			uses = append(uses, refUse{key: cloneKey(k), finding: Finding{File: strings.Clone(o.File), Line: start.Line, Col: start.Col, Severity: Info,
				Rule: ruleDanglingRef, Message: msg, Object: o.String(), Namespace: strings.Clone(o.Namespace), Field: field}})
		}
	}
	c.mu.Lock()
	for k := range local {
		c.provided[k] = true
	}
	c.uses = append(c.uses, uses...)
	c.mu.Unlock()
}

// findings are the references nothing in the whole set provides.
func (c *refCollector) findings() []Finding {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []Finding
	for _, u := range c.uses {
		if !c.provided[u.key] {
			out = append(out, u.finding)
		}
	}
	return out
}

func cloneKey(k podrefs.Key) podrefs.Key {
	return podrefs.Key{Kind: k.Kind, Namespace: strings.Clone(k.Namespace), Name: strings.Clone(k.Name)}
}
