package helm

import (
	"context"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/kubeplan/kubeplan/manifest"
	"helm.sh/helm/v4/pkg/chart/common"
	chart "helm.sh/helm/v4/pkg/chart/v2"
)

// helmRenders counts the renders of charts' templates (for tests and
// benchmarks: a chart that generates nothing and reads no Secret renders
// once).
var helmRenders atomic.Int64

// chartRender renders one chart's templates as many times as it takes to
// tell which fields the chart generated and which it derived from the data
// of a Secret it looked up (see keptFields). The renders share one
// deadline, one lookup cache and one tape of generated values.
type chartRender struct {
	path     string
	ch       *chart.Chart
	top      common.Values
	h        Options
	ctx      context.Context
	deadline time.Time
	cache    *lookupCache
	tape     *[]genCall
	// first is the first render, when it rendered without an error
	// problem (see reusedObjects).
	first *firstRender
	// pending is a render started ahead (see start).
	pending *pendingRender
}

// render is one render of the templates: generating functions in mode,
// looked-up Secrets' data as is (withhold 0) or placeholder 1 or 2. It
// reports how many generating calls the templates made and whether a
// Secret with data came back from lookup.
func (r *chartRender) render(mode genMode, withhold int) (out map[string]string, calls int, sawSecret bool, bound *manifest.Problem, err error) {
	helmRenders.Add(1)
	gen := newGenSource(mode, r.tape)
	look := &lookupSource{ctx: r.ctx, lk: r.h.Lookup, cache: r.cache, withhold: withhold}
	extra := gen.funcs()
	extra["lookup"] = look.fn
	// each render its own values: a template may change them (set), and
	// what one render put there must not reach the next
	top, _ := copyValues(r.top).(common.Values)
	out, bound, err = renderBounded(r.path, r.ch, top, r.h.Timeout, maxHelmOutputBytes, helmHeapGrowth, extra, r.deadline)
	return out, int(gen.calls.Load()), look.sawSecret.Load(), bound, err
}

// auxObjects is auxObjectsProblems with its first problem: nil objects
// when rendering or parsing fails.
func (r *chartRender) auxObjects(mode genMode, withhold int) ([]*manifest.Object, *manifest.Problem) {
	objs, probs := r.auxObjectsProblems(mode, withhold)
	if len(probs) > 0 {
		return nil, probs[0]
	}
	return objs, nil
}

// keptFields sets Kept on objs, the objects of the first render (made
// with live generating functions and, when withhold is 1, looked-up Secret
// data replaced by placeholder 1; as is when 0):
//
//   - when the templates called a generating function, they render again
//     with other values (genVary): a field that differs is KeptGenerated;
//   - when lookup returned a Secret with data, they render with the first
//     render's generated values (genReplay) and placeholder 2, and, when
//     the first render had the real data, with placeholder 1 too: a field
//     that differs between the real data and placeholder 1, or between
//     the placeholders, is KeptLookedUp. An object only the first render
//     made has all its fields but apiVersion, kind and metadata kept.
//
// A field both generated and looked up is KeptLookedUp. The problem is a
// render with placeholders that failed: kubeplan cannot tell which fields
// hold the Secret's data, so the chart is refused.
func (r *chartRender) keptFields(objs []*manifest.Object, generated, lookedUp bool, withhold int) *manifest.Problem {
	gen := map[int][][]string{}
	if generated {
		if vary, p := r.auxObjects(genVary, withhold); p == nil {
			for i, j := range pairObjects(objs, vary) {
				if j >= 0 {
					gen[i] = diffContent(objs[i].Content, vary[j].Content)
				}
			}
		}
	}
	looked := map[int][][]string{}
	if lookedUp {
		one := objs
		if withhold == 0 {
			var p *manifest.Problem
			if one, p = r.auxObjects(genReplay, 1); p != nil {
				return withheldProblem(p)
			}
		}
		two, p := r.auxObjects(genReplay, 2)
		if p != nil {
			return withheldProblem(p)
		}
		p1, p2 := pairObjects(objs, one), pairObjects(objs, two)
		for i, o := range objs {
			if p1[i] < 0 || p2[i] < 0 {
				looked[i] = bodyPaths(o.Content)
				continue
			}
			a, b := one[p1[i]], two[p2[i]]
			paths := diffContent(a.Content, b.Content)
			if withhold == 0 {
				paths = append(paths, diffContent(o.Content, a.Content)...)
			}
			looked[i] = paths
		}
	}
	for i, o := range objs {
		for _, p := range looked[i] {
			if identityPath(p) {
				return &manifest.Problem{File: o.File, Pos: o.KeyPos("metadata"), Rule: "helm-template",
					Message: "the identity of this object (its apiVersion, kind, name or namespace) is made from the data of a Secret the chart looked up: kubeplan refuses to show or apply it"}
			}
		}
		o.Kept = mergeKept(looked[i], gen[i])
	}
	return nil
}

// identityPath reports whether a field path is, or holds, what names an
// object: apiVersion, kind, metadata.name, metadata.namespace.
func identityPath(p []string) bool {
	for _, id := range [][]string{{"apiVersion"}, {"kind"}, {"metadata", "name"}, {"metadata", "namespace"}} {
		if hasPrefix(p, id) || hasPrefix(id, p) {
			return true
		}
	}
	return false
}

// withheldErrors are the problems of a render given the real data of a
// looked-up Secret that failed (err, or the parse problems of its
// output), said without the real data: the problems of the same render
// with placeholder 1 where it fails too, else the real ones at their
// places with a message that quotes nothing.
func (r *chartRender) withheldErrors(err error, probs []*manifest.Problem) []*manifest.Problem {
	if _, p := r.auxObjectsProblems(genReplay, 1); len(p) > 0 {
		return p
	}
	var real []*manifest.Problem
	if err != nil {
		real = []*manifest.Problem{templateProblem(r.path, err)}
	}
	for _, p := range probs {
		if !p.Warning && !p.Info {
			real = append(real, p)
		}
	}
	out := make([]*manifest.Problem, len(real))
	for i, p := range real {
		q := *p
		q.Message = "the chart fails with the real data of a Secret it looked up (where it renders with a placeholder); the message is not shown, as it may hold that data"
		out[i] = &q
	}
	return out
}

// auxObjectsProblems renders again (see render) and parses the output as
// helmObjects does, without blame; with the error problems of rendering
// or parsing.
func (r *chartRender) auxObjectsProblems(mode genMode, withhold int) ([]*manifest.Object, []*manifest.Problem) {
	out, bound, err := r.renderAgain(mode, withhold)
	if bound != nil {
		return nil, []*manifest.Problem{bound}
	}
	if err != nil {
		return nil, []*manifest.Problem{templateProblem(r.path, err)}
	}
	objs, probs, ok := r.reusedObjects(out)
	if !ok {
		objs, probs = helmObjects(r.path, r.ch, out, r.h, nil, nil)
	}
	var errs []*manifest.Problem
	for _, p := range probs {
		if !p.Warning && !p.Info {
			errs = append(errs, p)
		}
	}
	return objs, errs
}

// hasErrorProblem reports whether probs hold an error.
func hasErrorProblem(probs []*manifest.Problem) bool {
	for _, p := range probs {
		if !p.Warning && !p.Info {
			return true
		}
	}
	return false
}

// withheldProblem is p, the failure of a render with placeholders for the
// data of looked-up Secrets, said as such.
func withheldProblem(p *manifest.Problem) *manifest.Problem {
	q := *p
	q.Message = "rendering again with the data of looked-up Secrets withheld failed, so kubeplan cannot tell which fields hold it: " + p.Message
	return &q
}

// mergeKept is the Kept list of one object: the looked-up paths, then the
// generated ones no looked-up path equals or holds, each once, in order.
func mergeKept(looked, gen [][]string) []manifest.KeptField {
	looked = minimalPaths(looked)
	var out []manifest.KeptField
	for _, p := range looked {
		out = append(out, manifest.KeptField{Path: p, Reason: manifest.KeptLookedUp})
	}
	for _, p := range minimalPaths(gen) {
		if slices.ContainsFunc(looked, func(l []string) bool { return hasPrefix(p, l) }) {
			continue
		}
		out = append(out, manifest.KeptField{Path: p, Reason: manifest.KeptGenerated})
	}
	return out
}

// minimalPaths are the paths, sorted, without duplicates and without one
// another path holds.
func minimalPaths(paths [][]string) [][]string {
	sort.Slice(paths, func(i, j int) bool { return slices.Compare(paths[i], paths[j]) < 0 })
	var out [][]string
	for _, p := range paths {
		if len(out) > 0 && hasPrefix(p, out[len(out)-1]) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// hasPrefix reports whether path starts with prefix (or is it).
func hasPrefix(path, prefix []string) bool {
	return len(path) >= len(prefix) && slices.Equal(path[:len(prefix)], prefix)
}

// pairObjects is, for each object of x, the index of the object of y
// rendered at the same place (template, document, apiVersion and kind),
// -1 when y has none.
func pairObjects(x, y []*manifest.Object) []int {
	at := map[string]int{}
	for j, k := range placeKeys(y) {
		at[k] = j
	}
	out := make([]int, len(x))
	for i, k := range placeKeys(x) {
		j, ok := at[k]
		if !ok {
			j = -1
		}
		out[i] = j
	}
	return out
}

// placeKeys name where each object was rendered: template, document,
// apiVersion, kind, and how many came before it there (the items of a
// List share a document).
func placeKeys(objs []*manifest.Object) []string {
	n := map[string]int{}
	out := make([]string, len(objs))
	for i, o := range objs {
		k := o.File + "\x00" + strconv.Itoa(o.Doc) + "\x00" + o.APIVersion + "\x00" + o.Kind
		out[i] = k + "\x00" + strconv.Itoa(n[k])
		n[k]++
	}
	return out
}

// diffContent are the paths of the fields that differ between two
// renders of an object: the scalars that differ, a list whose length
// differs, a mapping whose keys differ (as a whole: its keys may be made
// of the values); at the top, each field that differs or is in one only.
func diffContent(x, y map[string]any) [][]string {
	if len(x) > 0 && reflect.ValueOf(x).UnsafePointer() == reflect.ValueOf(y).UnsafePointer() {
		return nil // one object: a template whose output did not change (see reusedObjects)
	}
	var out [][]string
	keys := map[string]bool{}
	for k := range x {
		keys[k] = true
	}
	for k := range y {
		keys[k] = true
	}
	for k := range keys {
		xv, xok := x[k]
		yv, yok := y[k]
		if xok != yok {
			out = append(out, []string{k})
			continue
		}
		diffValue(xv, yv, []string{k}, &out)
	}
	return out
}

func diffValue(x, y any, path []string, out *[][]string) {
	switch xv := x.(type) {
	case map[string]any:
		yv, ok := y.(map[string]any)
		if !ok || len(xv) != len(yv) {
			*out = append(*out, path)
			return
		}
		for k := range xv {
			if _, ok := yv[k]; !ok {
				*out = append(*out, path)
				return
			}
		}
		for k, e := range xv {
			diffValue(e, yv[k], append(slices.Clip(path), k), out)
		}
	case []any:
		yv, ok := y.([]any)
		if !ok || len(xv) != len(yv) {
			*out = append(*out, path)
			return
		}
		for i, e := range xv {
			diffValue(e, yv[i], append(slices.Clip(path), strconv.Itoa(i)), out)
		}
	default:
		if !reflect.DeepEqual(x, y) {
			*out = append(*out, path)
		}
	}
}

// bodyPaths are the top-level fields of an object but apiVersion, kind and
// metadata.
func bodyPaths(c map[string]any) [][]string {
	var out [][]string
	for k := range c {
		switch k {
		case "apiVersion", "kind", "metadata":
		default:
			out = append(out, []string{k})
		}
	}
	return out
}

// CarriedKept are the Kept fields of a chart's rendered object (from) that
// an object kustomize built from it (content) still holds unchanged: a
// field a patch replaced comes from the repository.
func CarriedKept(from *manifest.Object, content map[string]any) []manifest.KeptField {
	var out []manifest.KeptField
	for _, k := range from.Kept {
		was, ok1 := from.Get(k.Path...)
		now, ok2 := (&manifest.Object{Content: content}).Get(k.Path...)
		if ok1 && ok2 && reflect.DeepEqual(was, now) {
			out = append(out, k)
		}
	}
	return out
}

// copyValues copies the maps and lists of a chart's render values
// (.Values, .Release...); anything else (.Capabilities, .Files) is shared.
func copyValues(v any) any {
	switch t := v.(type) {
	case common.Values:
		out := make(common.Values, len(t))
		for k, e := range t {
			out[k] = copyValues(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = copyValues(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = copyValues(e)
		}
		return out
	}
	return v
}
