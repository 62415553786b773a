package lint

import (
	"slices"
	"strings"
	"sync"

	"github.com/kubeplan/kubeplan/internal/stage"
	"github.com/kubeplan/kubeplan/manifest"
)

// The rules about the ordering annotations teams already write (Argo CD
// waves and hooks, kapp change groups and rules; see docs/ordering.md).
const (
	ruleOrderAnnotation   = stage.ProblemAnnotation
	ruleOrderUnknownGroup = stage.ProblemUnknownGroup
	ruleOrderCycle        = stage.ProblemCycle
)

// orderCollector gathers, through Options.Loaded, the objects that take
// part in ordering: those with an Argo CD or kapp ordering annotation, and
// the CRDs and Namespaces kapp's default groups hold. Cycles and unknown
// groups need the whole set, so stage.Resolve runs once at the end over
// them. Positions are looked up, when an object is collected, only for the
// annotations a finding can point at (see add): the rest of the set costs
// one map scan of its annotations. Each project (each group of runGroups) is its
// own set, as plan and apply place them: groups and rules of one project
// never meet another's.
type orderCollector struct {
	mu    sync.Mutex
	group int // the group being loaded (setGroup)
	objs  []stage.Object
	refs  []orderRef
}

// setGroup says the objects loaded from now on are group i's. runGroups
// loads one group at a time.
func (c *orderCollector) setGroup(i int) {
	c.mu.Lock()
	c.group = i
	c.mu.Unlock()
}

// orderRef is what a finding needs of a collected object, and its group.
type orderRef struct {
	object, namespace string
	group             int
}

// orderKey reports whether k is an annotation stage reads besides Helm's
// (whose values lint does not judge: Helm ignores what it does not know).
func orderKey(k string) bool {
	switch k {
	case stage.WaveAnnotation, stage.HookAnnotation, stage.DeletePolicyAnnotation:
		return true
	}
	return k == stage.GroupAnnotation || k == stage.RuleAnnotation ||
		strings.HasPrefix(k, stage.GroupAnnotation+".") || strings.HasPrefix(k, stage.RuleAnnotation+".")
}

func (c *orderCollector) wrap(next func([]*manifest.Object)) func([]*manifest.Object) {
	return func(objs []*manifest.Object) {
		c.add(objs)
		if next != nil {
			next(objs)
		}
	}
}

func (c *orderCollector) add(objs []*manifest.Object) {
	var batch []stage.Object
	var refs []orderRef
	for _, o := range objs {
		// The raw annotations: no map is built for the objects (nearly
		// all) that have no ordering annotation.
		md, _ := o.Content["metadata"].(map[string]any)
		ann, _ := md["annotations"].(map[string]any)
		var keys []string
		for k, v := range ann {
			if _, ok := v.(string); ok && orderKey(k) {
				keys = append(keys, k)
			}
		}
		crd := o.Group() == "apiextensions.k8s.io" && o.Kind == "CustomResourceDefinition"
		if len(keys) == 0 && !crd && !(o.Group() == "" && o.Kind == "Namespace") {
			continue
		}
		// Everything kept past this batch is cloned, so no file's data
		// stays alive (see refCollector.add).
		so := stage.Object{Ref: strings.Clone(o.String()), Group: strings.Clone(o.Group()), Kind: strings.Clone(o.Kind),
			Namespace: strings.Clone(o.Namespace), Name: strings.Clone(o.Name), File: strings.Clone(o.File),
			Annotations: map[string]string{}}
		if crd {
			so.CRDGroup, so.CRDKind = strings.Clone(o.GetString("spec", "group")), strings.Clone(o.GetString("spec", "names", "kind"))
		}
		for _, k := range keys {
			so.Annotations[strings.Clone(k)] = strings.Clone(ann[k].(string))
		}
		// Positions cost a second parse of the document, so they are
		// looked up only where a finding can point: the values stage.Read
		// finds at fault now, and the change rules (an unknown group or a
		// cycle is only known once the whole set is read). A set ordered by
		// waves alone looks up none.
		need := map[string]bool{}
		for _, k := range keys {
			if strings.HasPrefix(k, stage.RuleAnnotation) {
				need[k] = true
			}
		}
		if _, probs := stage.Read(so); len(probs) > 0 {
			for _, p := range probs {
				need[p.Annotation] = true
			}
		}
		type place struct {
			file      string
			line, col int
		}
		pos := map[string]place{}
		for k := range need {
			p := o.Pos("metadata", "annotations", k)
			file := ""
			if f := o.FileOf("metadata", "annotations", k); f != o.File {
				file = strings.Clone(f)
			}
			pos[strings.Clone(k)] = place{file, p.Line, p.Col}
		}
		so.Pos = func(key string) (string, int, int) {
			p := pos[key]
			return p.file, p.line, p.col
		}
		batch = append(batch, so)
		refs = append(refs, orderRef{object: so.Ref, namespace: so.Namespace})
	}
	if len(batch) == 0 {
		return
	}
	c.mu.Lock()
	for i := range refs {
		refs[i].group = c.group
	}
	c.objs = append(c.objs, batch...)
	c.refs = append(c.refs, refs...)
	c.mu.Unlock()
}

// findings places the collected objects in stages and reports what stops
// it, each at the annotation's value.
func (c *orderCollector) findings() []Finding {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !slices.ContainsFunc(c.objs, func(o stage.Object) bool { return len(o.Annotations) > 0 }) {
		return nil
	}
	byGroup := map[int][]int{} // group -> indexes into objs
	var groups []int
	for i, r := range c.refs {
		if _, ok := byGroup[r.group]; !ok {
			groups = append(groups, r.group)
		}
		byGroup[r.group] = append(byGroup[r.group], i)
	}
	var out []Finding
	for _, g := range groups {
		idx := byGroup[g]
		objs := make([]stage.Object, len(idx))
		for j, i := range idx {
			objs[j] = c.objs[i]
		}
		_, probs := stage.Resolve(objs)
		for _, p := range probs {
			r := c.refs[idx[p.Object]]
			out = append(out, Finding{File: p.File, Line: p.Line, Col: p.Col, Severity: Error, Rule: p.Rule, Message: p.Message,
				Object: r.object, Namespace: r.namespace, Field: fieldPath([]string{"metadata", "annotations", p.Annotation})})
		}
	}
	return out
}
