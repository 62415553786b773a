package ghreview

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// The expressions the hand-written matchers replace: each matcher must
// answer as its expression does, on every input.
var (
	loginRE      = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$`)
	userOwnerRE  = regexp.MustCompile(`^@([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))$`)
	teamOwnerRE  = regexp.MustCompile(`^@([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))/([A-Za-z0-9._-]{1,100})$`)
	emailOwnerRE = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)
)

// nameInputs are edge cases (lengths at the bounds, every separator, white
// space, non-ASCII and invalid UTF-8) and 20000 seeded random strings over
// the characters that matter.
func nameInputs() []string {
	in := []string{
		"", "@", "a", "-", "-a", "a-", "a--b", "A9", "é", "\xff", "a b", "a\tb", "a\vb", "name[bot]",
		strings.Repeat("a", 38), strings.Repeat("a", 39), strings.Repeat("a", 40), "a" + strings.Repeat("-", 38),
		"@a", "@-a", "@" + strings.Repeat("b", 39), "@" + strings.Repeat("b", 40), "@a/", "@a/b", "@a//b", "@a/b/c",
		"@a/" + strings.Repeat("t", 100), "@a/" + strings.Repeat("t", 101), "@a/._-", "@a/b c", "@a/é", "@/b",
		"a@b.c", "a@b.", "a@.c", "a@b..", "a@b.c.", "a@.b.", "@b.c", "a@b", "a@@b.c", "a@b@c.d", "a@b.c d",
		"a@b.c\n", "a\n@b.c", "é@b.c", "\xff@b.\xff", "a@..", "a@...", "a@b.c\v", "a@b\f.c",
	}
	const alphabet = "aZ09-_./@ \t\n\v\f\r"
	extra := []string{"é", "\xff", "[", "]"}
	r := rand.New(rand.NewPCG(33, 1))
	for range 20000 {
		var b strings.Builder
		if r.IntN(2) == 0 {
			b.WriteByte('@')
		}
		n := r.IntN(45)
		if r.IntN(10) == 0 {
			n = 95 + r.IntN(15)
		}
		for range n {
			switch k := r.IntN(40); {
			case k < 30:
				b.WriteByte("abcXYZ0189-"[r.IntN(11)])
			case k < 38:
				b.WriteByte(alphabet[r.IntN(len(alphabet))])
			default:
				b.WriteString(extra[r.IntN(len(extra))])
			}
		}
		in = append(in, b.String())
	}
	return in
}

func TestNameMatchersEqualTheirExpressions(t *testing.T) {
	matchers := []struct {
		name string
		re   *regexp.Regexp
		fn   func(string) bool
	}{
		{"isLogin", loginRE, isLogin},
		{"isUserOwner", userOwnerRE, isUserOwner},
		{"isTeamOwner", teamOwnerRE, isTeamOwner},
		{"isEmailOwner", emailOwnerRE, isEmailOwner},
	}
	for _, m := range matchers {
		matched := 0
		for _, s := range nameInputs() {
			want := m.re.MatchString(s)
			if got := m.fn(s); got != want {
				t.Errorf("%s(%q) = %v, its expression %s says %v", m.name, s, got, m.re, want)
			}
			if want {
				matched++
			}
		}
		if matched < 20 { // the inputs must exercise both answers
			t.Errorf("%s: only %d inputs match %s", m.name, matched, m.re)
		}
	}
}

func FuzzNameMatchers(f *testing.F) {
	for _, s := range nameInputs()[:60] {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if isLogin(s) != loginRE.MatchString(s) || isUserOwner(s) != userOwnerRE.MatchString(s) ||
			isTeamOwner(s) != teamOwnerRE.MatchString(s) || isEmailOwner(s) != emailOwnerRE.MatchString(s) {
			t.Errorf("a matcher and its expression disagree on %q", s)
		}
	})
}
