package helm

import "github.com/kubeplan/kubeplan/manifest"

// firstRender is the render whose objects Render returns: its output by
// template, and its objects. The renders keptFields makes after it parse
// only the templates whose output differs from it (see reusedObjects):
// on a chart of a few hundred templates and large CRDs, parsing every
// output again cost more than the render itself.
type firstRender struct {
	out  map[string]string
	objs []*manifest.Object
}

// reusedObjects parses out, another render of r's templates, as
// helmObjects does without blame, but only the templates whose output
// differs from r.first's: the objects of the others (and the CRDs, which
// are files, not templates) are r.first's own, their content the same
// bytes parsed. It returns false when there is no first render to reuse
// (it failed, or had error problems a full parse must report again).
func (r *chartRender) reusedObjects(out map[string]string) ([]*manifest.Object, []*manifest.Problem, bool) {
	if r.first == nil || !reuseFirstRender {
		return nil, nil, false
	}
	same := map[string]bool{}
	changed := map[string]string{}
	for name, text := range out {
		if prev, ok := r.first.out[name]; ok && prev == text {
			same[chartFile(r.path, name)] = true
		} else {
			changed[name] = text
		}
	}
	for _, crd := range r.ch.CRDObjects() {
		same[chartFile(r.path, crd.Filename)] = true
	}
	var objs []*manifest.Object
	for _, o := range r.first.objs {
		if same[o.File] {
			objs = append(objs, o)
		}
	}
	h := r.h
	h.SkipCRDs = true
	parsed, probs := helmObjects(r.path, r.ch, changed, h, nil, nil)
	return append(objs, parsed...), probs, true
}

// reuseFirstRender is off only in tests, which compare the Kept fields
// found with and without reusing the first render's objects.
var reuseFirstRender = true

// pendingRender is a render started ahead (see chartRender.start).
type pendingRender struct {
	mode     genMode
	withhold int
	done     chan struct{}
	out      map[string]string
	bound    *manifest.Problem
	err      error
}

// start begins the render keptFields will ask for next, while the first
// render's output is parsed: it needs only the first render's tape, which
// is complete once that render returned. auxObjectsProblems takes it.
func (r *chartRender) start(mode genMode, withhold int) {
	p := &pendingRender{mode: mode, withhold: withhold, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		p.out, _, _, p.bound, p.err = r.render(mode, withhold)
	}()
	r.pending = p
}

// renderAgain is the render started ahead in this mode, else a new one.
func (r *chartRender) renderAgain(mode genMode, withhold int) (map[string]string, *manifest.Problem, error) {
	if p := r.pending; p != nil && p.mode == mode && p.withhold == withhold {
		r.pending = nil
		<-p.done
		return p.out, p.bound, p.err
	}
	out, _, _, bound, err := r.render(mode, withhold)
	return out, bound, err
}
