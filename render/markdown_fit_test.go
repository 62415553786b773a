package render

import (
	"slices"
	"testing"
)

// TestMdLayPolicies lays out the same parts (whole-or-nothing, sizes 5,
// 20, 3, 4) in 16 bytes under each policy.
func TestMdLayPolicies(t *testing.T) {
	texts := []string{"aaaaa", "bbbbbbbbbbbbbbbbbbbb", "ccc", "dddd"}
	parts := mdParts{n: len(texts),
		size: func(i int) int { return len(texts[i]) },
		fit: func(i, budget int) (string, int, bool) {
			return texts[i], len(texts[i]), len(texts[i]) <= budget
		}}
	cases := []struct {
		policy mdPolicy
		want   []string
		left   int
	}{
		// in order: b does not fit, c and d still do
		{mdInOrder, []string{"aaaaa", "", "ccc", "dddd"}, 4},
		// prefix: b does not fit and ends the list
		{mdPrefix, []string{"aaaaa", "", "", ""}, 11},
		// fair: shares of 16 are c 3, d 4, a 4, b 4 (c and d fit an equal
		// share, a and b split the 9 left), too little for a and b
		{mdFair, []string{"", "", "ccc", "dddd"}, 9},
	}
	for _, c := range cases {
		got, left := mdLay(c.policy, parts, 16)
		if !slices.Equal(got, c.want) || left != c.left {
			t.Errorf("policy %d: got %q, %d left; want %q, %d left", c.policy, got, left, c.want, c.left)
		}
	}
}

// TestMdLayFairKeepsWhatFits: under mdFair a part is kept when what it
// takes fits the room still left, even beyond its share.
func TestMdLayFairKeepsWhatFits(t *testing.T) {
	parts := mdParts{n: 2,
		size: func(int) int { return 10 },
		fit: func(i, budget int) (string, int, bool) {
			if budget < 10 {
				return "frame", 5, true // a cut part still has its frame
			}
			return "0123456789", 10, true
		}}
	got, left := mdLay(mdFair, parts, 8)
	if want := []string{"frame", ""}; !slices.Equal(got, want) || left != 3 {
		t.Errorf("got %q, %d left; want %q, 3 left", got, left, want)
	}
}
