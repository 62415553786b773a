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
	// fields interns refUse.field: a set repeats a few field paths
	// (spec.template.spec.containers[0].envFrom[0]...) in every workload.
	fields map[string]string
}

// refUse is a reference the batch that holds it does not provide: only
// what its finding needs, the message made by findings for the few that
// stay dangling (most are provided elsewhere in the set). Its strings are
// shared by the uses of one object.
type refUse struct {
	key       podrefs.Key
	file, obj string
	namespace string // the object's own, "" when it sets none
	field     string
	line, col int
}

func newRefCollector(namespace string) *refCollector {
	return &refCollector{namespace: namespace, provided: map[podrefs.Key]bool{}, fields: map[string]string{}}
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
		var file, obj, ns string // made once per object, for its first use
		for _, r := range podrefs.Refs(o.Group(), o.Kind, o.Content) {
			k := podrefs.Key{Kind: r.Kind, Namespace: c.ns(o), Name: r.Name}
			if local[k] {
				continue
			}
			if obj == "" {
				file, obj, ns = strings.Clone(o.File), o.String(), strings.Clone(o.Namespace)
			}
			start := o.Start()
			uses = append(uses, refUse{key: cloneKey(k), file: file, obj: obj, namespace: ns, field: fieldPath(r.Path), line: start.Line, col: start.Col})
		}
	}
	c.mu.Lock()
	for k := range local {
		c.provided[k] = true
	}
	for i := range uses {
		if f, ok := c.fields[uses[i].field]; ok {
			uses[i].field = f
		} else {
			c.fields[uses[i].field] = uses[i].field
		}
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
			msg := fmt.Sprintf("pods of %s need %s %q (%s), which is not in the manifests linted; it must exist in the cluster (kubeplan plan checks)", u.obj, strings.ToLower(u.key.Kind), u.key.Name, u.field)
			out = append(out, Finding{File: u.file, Line: u.line, Col: u.col, Severity: Info, Rule: ruleDanglingRef,
				Message: msg, Object: u.obj, Namespace: u.namespace, Field: u.field})
		}
	}
	return out
}

func cloneKey(k podrefs.Key) podrefs.Key {
	return podrefs.Key{Kind: k.Kind, Namespace: strings.Clone(k.Namespace), Name: strings.Clone(k.Name)}
}
