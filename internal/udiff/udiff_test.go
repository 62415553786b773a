package udiff

import (
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

func TestUnified(t *testing.T) {
	tests := []struct {
		name, a, b, want string
	}{
		{"both empty", "", "", ""},
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"from empty", "", "a\nb\n", "--- a\n+++ b\n@@ -0,0 +1,2 @@\n+a\n+b\n"},
		{"to empty", "a\nb\n", "", "--- a\n+++ b\n@@ -1,2 +0,0 @@\n-a\n-b\n"},
		{"one line", "a\n", "b\n", "--- a\n+++ b\n@@ -1 +1 @@\n-a\n+b\n"},
		{"all changed", "a\nb\nc\n", "x\ny\n", "--- a\n+++ b\n@@ -1,3 +1,2 @@\n-a\n-b\n-c\n+x\n+y\n"},
		{"insert at start", "1\n2\n3\n4\n5\n", "0\n1\n2\n3\n4\n5\n",
			"--- a\n+++ b\n@@ -1,3 +1,4 @@\n+0\n 1\n 2\n 3\n"},
		{"insert at end", "1\n2\n3\n4\n5\n", "1\n2\n3\n4\n5\n6\n",
			"--- a\n+++ b\n@@ -3,3 +3,4 @@\n 3\n 4\n 5\n+6\n"},
		{"delete in middle", "1\n2\n3\n4\n5\n6\n7\n", "1\n2\n3\n5\n6\n7\n",
			"--- a\n+++ b\n@@ -1,7 +1,6 @@\n 1\n 2\n 3\n-4\n 5\n 6\n 7\n"},
		{"no newline at end, both", "a\nb", "a\nc",
			"--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"},
		{"newline added at end", "a\nb", "a\nb\n",
			"--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
		{"unchanged last line without newline", "a\nb\nc", "x\nb\nc",
			"--- a\n+++ b\n@@ -1,3 +1,3 @@\n-a\n+x\n b\n c\n\\ No newline at end of file\n"},
		{"two hunks", lines(1, 20), strings.Replace(strings.Replace(lines(1, 20), "3\n", "x\n", 1), "17\n", "y\n", 1),
			"--- a\n+++ b\n@@ -1,6 +1,6 @@\n 1\n 2\n-3\n+x\n 4\n 5\n 6\n@@ -14,7 +14,7 @@\n 14\n 15\n 16\n-17\n+y\n 18\n 19\n 20\n"},
		// 6 unchanged lines between two changes: the contexts touch, one hunk.
		{"merged hunks", lines(1, 12), strings.Replace(strings.Replace(lines(1, 12), "3\n", "x\n", 1), "10\n", "y\n", 1),
			"--- a\n+++ b\n@@ -1,12 +1,12 @@\n 1\n 2\n-3\n+x\n 4\n 5\n 6\n 7\n 8\n 9\n-10\n+y\n 11\n 12\n"},
		// 7 unchanged lines between them: two hunks.
		{"split hunks", lines(1, 13), strings.Replace(strings.Replace(lines(1, 13), "3\n", "x\n", 1), "11\n", "y\n", 1),
			"--- a\n+++ b\n@@ -1,6 +1,6 @@\n 1\n 2\n-3\n+x\n 4\n 5\n 6\n@@ -8,6 +8,6 @@\n 8\n 9\n 10\n-11\n+y\n 12\n 13\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Unified("a", "b", tt.a, tt.b)
			if got != tt.want {
				t.Errorf("Unified:\n%s\nwant:\n%s", got, tt.want)
			}
			if got != "" {
				if p := apply(t, tt.a, got); p != tt.b {
					t.Errorf("patch does not apply: got %q, want %q", p, tt.b)
				}
			}
		})
	}
}

func lines(from, to int) string {
	var sb strings.Builder
	for i := from; i <= to; i++ {
		sb.WriteString(strconv.Itoa(i) + "\n")
	}
	return sb.String()
}

// TestRandom checks on random texts that the diff is minimal (against a
// dynamic-programming LCS) and that applying it to a gives b.
func TestRandom(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for iter := 0; iter < 3000; iter++ {
		alpha := 1 + r.Intn(6)
		a, b := randText(r, r.Intn(25), alpha), randText(r, r.Intn(25), alpha)
		if r.Intn(3) == 0 { // b close to a
			b = mutate(r, a, alpha)
		}
		al, bl := splitLines(a), splitLines(b)
		if got, want := len(lcs(al, bl)), dpLCS(al, bl); got != want {
			t.Fatalf("lcs(%q, %q) has %d lines, want %d", a, b, got, want)
		}
		checkMatches(t, al, bl, lcs(al, bl))
		d := Unified("a", "b", a, b)
		if (d == "") != (a == b) {
			t.Fatalf("Unified(%q, %q) = %q", a, b, d)
		}
		if d != "" {
			if p := apply(t, a, d); p != b {
				t.Fatalf("patch of %q to %q gives %q:\n%s", a, b, p, d)
			}
		}
	}
}

func randText(r *rand.Rand, n, alpha int) string {
	var sb strings.Builder
	for i := 0; i < n; i++ {
		sb.WriteByte(byte('a' + r.Intn(alpha)))
		if i < n-1 || r.Intn(4) != 0 {
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

func mutate(r *rand.Rand, a string, alpha int) string {
	l := splitLines(a)
	for k := r.Intn(4); k >= 0; k-- {
		i := 0
		if len(l) > 0 {
			i = r.Intn(len(l) + 1)
		}
		switch {
		case r.Intn(2) == 0 || i == len(l):
			l = append(l[:i], append([]string{string(rune('a'+r.Intn(alpha))) + "\n"}, l[i:]...)...)
		default:
			l = append(l[:i], l[i+1:]...)
		}
	}
	return strings.Join(l, "")
}

func dpLCS(a, b []string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(prev[j+1], cur[j])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func checkMatches(t *testing.T, a, b []string, ms []match) {
	t.Helper()
	for k, m := range ms {
		if a[m.a] != b[m.b] || (k > 0 && (m.a <= ms[k-1].a || m.b <= ms[k-1].b)) {
			t.Fatalf("bad matches %v for %q, %q", ms, a, b)
		}
	}
}

// apply applies a unified diff to a, checking the lines it removes and keeps.
func apply(t *testing.T, a, diff string) string {
	t.Helper()
	src := splitLines(a)
	dl := strings.Split(strings.TrimSuffix(diff, "\n"), "\n")
	if len(dl) < 2 || !strings.HasPrefix(dl[0], "--- ") || !strings.HasPrefix(dl[1], "+++ ") {
		t.Fatalf("bad header:\n%s", diff)
	}
	var out []string
	pos := 0
	for i := 2; i < len(dl); {
		as, an, bn := parseRange(t, dl[i])
		if an > 0 {
			as--
		}
		if as < pos {
			t.Fatalf("overlapping hunk %q", dl[i])
		}
		out = append(out, src[pos:as]...)
		pos = as
		i++
		gotA, gotB := 0, 0
		for i < len(dl) && !strings.HasPrefix(dl[i], "@@") {
			line := dl[i][1:] + "\n"
			if i+1 < len(dl) && dl[i+1] == `\ No newline at end of file` {
				line = dl[i][1:]
			}
			switch dl[i][0] {
			case ' ', '-':
				if pos >= len(src) || src[pos] != line {
					t.Fatalf("hunk line %q does not match source", dl[i])
				}
				if dl[i][0] == ' ' {
					out = append(out, line)
					gotB++
				}
				pos++
				gotA++
			case '+':
				out = append(out, line)
				gotB++
			case '\\':
			default:
				t.Fatalf("bad line %q", dl[i])
			}
			i++
		}
		if gotA != an || gotB != bn {
			t.Fatalf("hunk counts %d,%d, header says %d,%d:\n%s", gotA, gotB, an, bn, diff)
		}
	}
	out = append(out, src[pos:]...)
	return strings.Join(out, "")
}

func parseRange(t *testing.T, h string) (as, an, bn int) {
	f := strings.Fields(h) // @@ -l[,n] +l[,n] @@
	if len(f) != 4 || f[0] != "@@" || f[3] != "@@" {
		t.Fatalf("bad hunk header %q", h)
	}
	one := func(s string) (int, int) {
		s = s[1:]
		if i := strings.IndexByte(s, ','); i >= 0 {
			return atoi(s[:i]), atoi(s[i+1:])
		}
		return atoi(s), 1
	}
	as, an = one(f[1])
	_, bn = one(f[2])
	return
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic(err)
	}
	return n
}

// bigPair returns two 10,000-line YAML-like texts; b differs from a in
// every step-th line.
func bigPair(step int) (string, string) {
	var a, b strings.Builder
	for i := 0; i < 10000; i++ {
		l := fmt.Sprintf("  - name: item-%d\n", i)
		if i%5 == 0 {
			l = "    value: x\n" // repeated lines, as YAML has
		}
		a.WriteString(l)
		if step > 0 && i%step == 0 {
			l = fmt.Sprintf("  - name: changed-%d\n", i)
		}
		b.WriteString(l)
	}
	return a.String(), b.String()
}

func TestLarge(t *testing.T) {
	a, b := bigPair(100)
	d := Unified("a", "b", a, b)
	if p := apply(t, a, d); p != b {
		t.Fatal("patch of large input does not apply")
	}
	if n := strings.Count(d, "\n-"); n != 100 {
		t.Errorf("%d lines removed, want 100", n)
	}
}

func BenchmarkUnified(b *testing.B) {
	for _, bc := range []struct {
		name string
		step int
	}{{"10k-lines-1pct", 100}, {"10k-lines-10pct", 10}, {"10k-lines-all", 1}} {
		x, y := bigPair(bc.step)
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				Unified("a", "b", x, y)
			}
		})
	}
	r := rand.New(rand.NewSource(1))
	x, y := randText(r, 10000, 4), randText(r, 10000, 4)
	b.Run("10k-lines-random-4-symbols", func(b *testing.B) {
		for b.Loop() {
			Unified("a", "b", x, y)
		}
	})
}
