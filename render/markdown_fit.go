package render

import (
	"cmp"
	"slices"
)

// The one byte-budget engine of the markdown views. Every markdown
// layout is a tree of parts fitted by mdLay: a table's rows (mdPrefix)
// inside a view's sections (mdInOrder, mdFit) inside a run's project
// sections (mdFair, runMdFit). Only the policy, how the room is shared
// among the parts of one level, differs between the levels.

// mdPolicy is how mdLay shares room among parts.
type mdPolicy int

const (
	// mdInOrder gives each part, in order, the room the parts before it
	// left; a part that does not fit is left out and later ones may still
	// fit (the sections of a plan or an apply).
	mdInOrder mdPolicy = iota
	// mdPrefix is mdInOrder where the first part that does not fit ends
	// the list: what is kept is a prefix (the rows of a table).
	mdPrefix
	// mdFair decides every part's budget up front, max-min fairly from
	// the parts' whole sizes (fairShares); a part is kept when what it
	// takes fits the room still left (the projects of a run).
	mdFair
)

// mdParts is what mdLay lays out: n parts, part i being size(i) bytes
// whole. fit(i, budget) lays part i out in budget bytes and returns the
// markdown, the bytes it takes from the room (at least len(out); a part
// may reserve more, as a cut table does for its "…and N more" line) and
// whether there is anything worth writing.
type mdParts struct {
	n    int
	size func(i int) int // read by mdFair only
	fit  func(i, budget int) (out string, used int, ok bool)
}

// mdLay fits p in room bytes under policy: out[i] is part i's markdown,
// "" when it was left out, and left the room no part took (negative when
// room was).
func mdLay(policy mdPolicy, p mdParts, room int) (out []string, left int) {
	var shares []int
	if policy == mdFair {
		sizes := make([]int, p.n)
		for i := range sizes {
			sizes[i] = p.size(i)
		}
		shares = fairShares(sizes, room)
	}
	out, left = make([]string, p.n), room
	for i := range p.n {
		budget := left
		if shares != nil {
			budget = shares[i]
		}
		s, used, ok := p.fit(i, budget)
		if !ok || used > left {
			if policy == mdPrefix {
				break
			}
			continue
		}
		out[i], left = s, left-used
	}
	return out, left
}

// fairShares splits room bytes among parts wanting sizes, max-min fairly:
// in increasing order of size, a part smaller than an equal share of what
// is left gets its size, and the rest get that equal share each.
func fairShares(sizes []int, room int) []int {
	order := make([]int, len(sizes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(sizes[a], sizes[b]) })
	shares := make([]int, len(sizes))
	left := max(0, room)
	for k, i := range order {
		share := left / (len(order) - k)
		if sizes[i] <= share {
			shares[i] = sizes[i]
			left -= sizes[i]
			continue
		}
		for _, j := range order[k:] {
			shares[j] = share
		}
		break
	}
	return shares
}
