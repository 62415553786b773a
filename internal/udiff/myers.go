package udiff

// match pairs line a of the old text with line b of the new text.
type match struct{ a, b int }

// script returns a shortest edit script turning al into bl. Within a run of
// changes, deletions come before insertions.
func script(al, bl []string) []op {
	matches := lcs(al, bl)
	ops := make([]op, 0, len(al)+len(bl)-len(matches))
	i, j := 0, 0
	matches = append(matches, match{len(al), len(bl)}) // sentinel
	for _, mt := range matches {
		for ; i < mt.a; i++ {
			ops = append(ops, op{del, i, j})
		}
		for ; j < mt.b; j++ {
			ops = append(ops, op{ins, i, j})
		}
		if mt.a < len(al) {
			ops = append(ops, op{equal, i, j})
			i++
			j++
		}
	}
	return ops
}

// lcs returns a longest common subsequence of al and bl as increasing pairs.
func lcs(al, bl []string) []match {
	// Lines become small integers, so comparing them is cheap.
	ids := make(map[string]int32, len(al))
	a := make([]int32, len(al))
	for i, l := range al {
		id, ok := ids[l]
		if !ok {
			id = int32(len(ids))
			ids[l] = id
		}
		a[i] = id
	}
	inA := len(ids)
	seen := make([]bool, inA)
	b := make([]int32, len(bl))
	for i, l := range bl {
		id, ok := ids[l]
		if !ok {
			id = int32(len(ids))
			ids[l] = id
		}
		b[i] = id
		if int(id) < inA {
			seen[id] = true
		}
	}

	// A line that occurs on one side only is in no common subsequence:
	// leave it out (GNU diff does the same), which makes texts that
	// differ everywhere cheap. Lines of a with an id >= inA do not exist;
	// lines of b with such an id occur in b only.
	var fa, fb []int32
	var ia, ib []int
	for i, id := range a {
		if seen[id] {
			fa, ia = append(fa, id), append(ia, i)
		}
	}
	for i, id := range b {
		if int(id) < inA {
			fb, ib = append(fb, id), append(ib, i)
		}
	}
	m := &myers{a: fa, b: fb}
	m.diff(0, len(fa), 0, len(fb))
	for k := range m.out {
		m.out[k] = match{ia[m.out[k].a], ib[m.out[k].b]}
	}
	return m.out
}

type myers struct {
	a, b   []int32
	v1, v2 []int
	out    []match
}

// diff appends the matches of a[a0:a1] and b[b0:b1] to m.out, in order.
func (m *myers) diff(a0, a1, b0, b1 int) {
	for a0 < a1 && b0 < b1 && m.a[a0] == m.b[b0] {
		m.out = append(m.out, match{a0, b0})
		a0++
		b0++
	}
	n := 0
	for a0 < a1 && b0 < b1 && m.a[a1-1] == m.b[b1-1] {
		a1--
		b1--
		n++
	}
	if a0 < a1 && b0 < b1 {
		x, y := m.bisect(m.a[a0:a1], m.b[b0:b1])
		// (0,0) and the far corner cannot come back (the ends differ);
		// checking keeps the recursion finite whatever happens.
		if x >= 0 && (x > 0 || y > 0) && (x < a1-a0 || y < b1-b0) {
			m.diff(a0, a0+x, b0, b0+y)
			m.diff(a0+x, a1, b0+y, b1)
		}
	}
	for k := 0; k < n; k++ {
		m.out = append(m.out, match{a1 + k, b1 + k})
	}
}

// bisect finds the middle snake of a shortest edit script of A and B (which
// are non-empty and differ in their first and in their last element) and
// returns where to split the problem, or -1, -1 when A and B have nothing in
// common. It runs the search forward from the start and backward from the
// end at the same time, in O((N+M)D) time and O(N+M) space.
func (m *myers) bisect(A, B []int32) (int, int) {
	n, mm := len(A), len(B)
	maxD := (n + mm + 1) / 2
	off := maxD + 1
	size := 2*maxD + 3
	if cap(m.v1) < size {
		m.v1, m.v2 = make([]int, size), make([]int, size)
	}
	v1, v2 := m.v1[:size], m.v2[:size]
	for i := range v1 {
		v1[i], v2[i] = -1, -1
	}
	v1[off+1], v2[off+1] = 0, 0
	delta := n - mm
	// With an odd delta the forward path meets the reverse one first.
	front := delta%2 != 0
	// Diagonals that ran off the grid are not searched again.
	k1start, k1end, k2start, k2end := 0, 0, 0, 0
	for d := 0; d <= maxD; d++ {
		for k1 := -d + k1start; k1 <= d-k1end; k1 += 2 {
			ko := off + k1
			var x1 int
			if k1 == -d || (k1 != d && v1[ko-1] < v1[ko+1]) {
				x1 = v1[ko+1]
			} else {
				x1 = v1[ko-1] + 1
			}
			y1 := x1 - k1
			for x1 < n && y1 < mm && A[x1] == B[y1] {
				x1++
				y1++
			}
			v1[ko] = x1
			switch {
			case x1 > n:
				k1end += 2
			case y1 > mm:
				k1start += 2
			case front:
				k2o := off + delta - k1
				if k2o >= 0 && k2o < size && v2[k2o] != -1 && x1 >= n-v2[k2o] {
					return x1, y1
				}
			}
		}
		for k2 := -d + k2start; k2 <= d-k2end; k2 += 2 {
			ko := off + k2
			var x2 int
			if k2 == -d || (k2 != d && v2[ko-1] < v2[ko+1]) {
				x2 = v2[ko+1]
			} else {
				x2 = v2[ko-1] + 1
			}
			y2 := x2 - k2
			for x2 < n && y2 < mm && A[n-x2-1] == B[mm-y2-1] {
				x2++
				y2++
			}
			v2[ko] = x2
			switch {
			case x2 > n:
				k2end += 2
			case y2 > mm:
				k2start += 2
			case !front:
				k1o := off + delta - k2
				if k1o >= 0 && k1o < size && v1[k1o] != -1 {
					x1 := v1[k1o]
					if x1 >= n-x2 {
						return x1, x1 - (k1o - off)
					}
				}
			}
		}
	}
	return -1, -1
}
