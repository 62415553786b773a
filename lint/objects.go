package lint

import (
	"sort"
	"strings"
	"sync"

	"github.com/kubeplan/kubeplan/manifest"
)

// ObjectRef is what a report keeps of a linted object for the views that
// list every object, failing or not (JUnit): where its document starts and
// what it is, never its content.
type ObjectRef struct {
	File string `json:"file"`
	Line int    `json:"line"`
	// Object names it as Finding.Object does ("deployment.apps/web").
	Object    string `json:"object"`
	Namespace string `json:"namespace,omitempty"`
}

// objectList collects the ObjectRefs of the objects Check loads, through
// Options.Loaded, from several goroutines at once.
type objectList struct {
	mu   sync.Mutex
	refs []ObjectRef
}

// wrap returns a Loaded hook that records the objects, then calls next.
func (l *objectList) wrap(next func([]*manifest.Object)) func([]*manifest.Object) {
	return func(objs []*manifest.Object) {
		l.add(objs)
		if next != nil {
			next(objs)
		}
	}
}

// add records objs; it keeps no reference to them.
func (l *objectList) add(objs []*manifest.Object) {
	refs := make([]ObjectRef, 0, len(objs))
	for _, o := range objs {
		refs = append(refs, ObjectRef{File: o.File, Line: o.Start().Line, Object: o.String(), Namespace: o.Namespace})
	}
	l.mu.Lock()
	l.refs = append(l.refs, refs...)
	l.mu.Unlock()
}

// list returns the objects sorted by file and line, one per document: a
// base that several overlays build is one object to fix, named as Dedupe
// names its findings (the least namespace and name), so the findings and
// the objects of a report agree.
func (l *objectList) list() []ObjectRef {
	l.mu.Lock()
	defer l.mu.Unlock()
	refs := l.refs
	l.refs = nil
	sort.Slice(refs, func(i, j int) bool {
		a, b := refs[i], refs[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return lessLabel(a.Namespace, a.Object, b.Namespace, b.Object)
	})
	type docKey struct {
		file, kind string
		line       int
	}
	out := refs[:0]
	seen := map[docKey]bool{}
	for _, r := range refs {
		k := docKey{r.File, kindOf(r.Object), r.Line}
		if r.Line == 0 { // no position: only the same object is the same
			k.kind = r.Namespace + "/" + r.Object
		}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, r)
	}
	return out
}

// kindOf is the kind part of "deployment.apps/web".
func kindOf(object string) string {
	k, _, _ := strings.Cut(object, "/")
	return k
}

// lessLabel orders objects by namespace, then name.
func lessLabel(ns1, obj1, ns2, obj2 string) bool {
	if ns1 != ns2 {
		return ns1 < ns2
	}
	return obj1 < obj2
}
