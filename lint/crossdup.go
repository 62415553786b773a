package lint

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/loader"
	"github.com/kubeplan/kubeplan/policies"
)

// duplicateRule is the rule crossDuplicates runs between projects.
const duplicateRule = "duplicate-object"

// crossDuplicates reports duplicate-object between two loaded projects
// (Input.Projects) that put one object at one place: the same cluster and
// the same namespace (the object's own, else its project's). There the two
// copies are one object two ApplySets would fight over. Projects that go
// elsewhere never collide, and a duplicate within one project is its own
// group's to report. keys are the identities each group's lint kept.
func crossDuplicates(gs []group, srcs [][]*loader.Source, keys [][]identity, opts Options) ([]Finding, error) {
	rule, ok := policies.ByID(duplicateRule)
	if !ok {
		return nil, nil
	}
	if s, set := opts.Rules[duplicateRule]; set && s.Off {
		return nil, nil
	}
	type place struct {
		g  int
		id identity
	}
	first := map[string]place{}
	var pairs [][2]place
	for i, g := range gs {
		if g.project == nil {
			continue
		}
		inGroup := map[string]bool{}
		for _, id := range keys[i] {
			k := g.project.Cluster() + "\x00" + id.key // the key holds the namespace
			if inGroup[k] {
				continue
			}
			inGroup[k] = true
			if f, ok := first[k]; ok {
				pairs = append(pairs, [2]place{f, {i, id}})
				continue
			}
			first[k] = place{i, id}
		}
	}
	// Pairs by the source of their first copy, then of the second: one
	// source of each side is loaded at a time, not every project's objects.
	slices.SortStableFunc(pairs, func(a, b [2]place) int {
		return cmp.Or(cmp.Compare(a[0].g, b[0].g), cmp.Compare(a[0].id.src, b[0].id.src),
			cmp.Compare(a[1].g, b[1].g), cmp.Compare(a[1].id.src, b[1].id.src))
	})
	type slot struct {
		key  [2]int
		objs []*manifest.Object
		ok   bool
	}
	var sides [2]slot // the source last loaded for each side of a pair
	object := func(side int, p place) (*manifest.Object, error) {
		k := [2]int{p.g, p.id.src}
		sl := &sides[side]
		if other := sides[1-side]; other.ok && other.key == k {
			*sl = other
		}
		if !sl.ok || sl.key != k {
			objs, _, err := srcs[p.g][p.id.src].Load()
			if err != nil {
				return nil, err
			}
			*sl = slot{k, objs, true}
		}
		if p.id.obj >= len(sl.objs) {
			return nil, nil // the source changed since: nothing to compare
		}
		return sl.objs[p.id.obj], nil
	}
	sev, _ := ParseSeverity(rule.Severity)
	var out []Finding
	for _, pair := range pairs {
		a, err := object(0, pair[0])
		if err != nil {
			return nil, err
		}
		b, err := object(1, pair[1])
		if err != nil {
			return nil, err
		}
		if a == nil || b == nil {
			continue
		}
		pa, pb := gs[pair[0].g].project, gs[pair[1].g].project
		where := ""
		if ns := b.Namespace; ns != "" || gs[pair[1].g].options(opts).Namespace != "" {
			if ns == "" {
				ns = gs[pair[1].g].options(opts).Namespace
			}
			where = fmt.Sprintf(" in namespace %q", ns)
		}
		msg := fmt.Sprintf("%s%s is also defined by project %s, at %s:%d, and projects %s and %s apply to one cluster, where their ApplySets would fight over it; remove one copy or rename it",
			b, where, pa.Name, a.FileOf("metadata", "name"), a.Pos("metadata", "name").Line, pa.Name, pb.Name)
		f := objectFinding(b, []string{"metadata", "name"}, sev, rule.ID, msg)
		out = append(out, applySettings([]Finding{f}, []*manifest.Object{a, b}, opts.Rules)...)
	}
	return out, nil
}
