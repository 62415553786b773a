package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// checkTranscripts holds the documents' excerpts of the demo's output (in
// README.md and docs/*.md) to the real output.
func checkTranscripts(t *testing.T, blocks []block, out string) {
	t.Helper()
	outLines := strings.Split(out, "\n")
	n := 0
	for _, b := range blocks {
		if b.info != "text" || b.marker != "" || !slices.ContainsFunc(b.lines, func(l string) bool { return strings.HasPrefix(l, "$ ") }) {
			continue
		}
		n++
		if i, l := matchExcerpt(b.lines, outLines); i >= 0 {
			t.Errorf("%s:%d: %q is not in the demo's output where this excerpt says (after the lines before it)", b.file, b.line+i, l)
		}
	}
	if n == 0 {
		t.Error("the documents quote no demo output (no ```text block with a \"$ \" line)")
	}
}

// matchExcerpt finds the excerpt in out: its parts (separated by "..."
// lines) each contiguous, in order. It returns -1, or the index and text of
// the first excerpt line it could not place.
func matchExcerpt(excerpt, out []string) (int, string) {
	pos := 0
	for start := 0; start < len(excerpt); {
		end := start
		for end < len(excerpt) && strings.TrimSpace(excerpt[end]) != "..." {
			end++
		}
		part := excerpt[start:end]
		if len(part) > 0 {
			res := make([]*regexp.Regexp, len(part))
			for i, l := range part {
				res[i] = lineRegexp(l)
			}
			found := -1
			for at := pos; at+len(part) <= len(out) && found < 0; at++ {
				ok := true
				for i, re := range res {
					if !re.MatchString(strings.TrimRight(out[at+i], " ")) {
						ok = false
						break
					}
				}
				if ok {
					found = at
				}
			}
			if found < 0 {
				// Name the first line that is not there at all after pos.
				for i, re := range res {
					if !slices.ContainsFunc(out[pos:], func(o string) bool { return re.MatchString(strings.TrimRight(o, " ")) }) {
						return start + i, part[i]
					}
				}
				return start, part[0]
			}
			pos = found + len(part)
		}
		start = end + 1
	}
	return -1, ""
}

var (
	hexWord   = regexp.MustCompile(`\b[0-9a-f]*[0-9][0-9a-f]*\b`)
	timestamp = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`)
)

// lineRegexp matches an excerpt line: "…" is any text, a commit hash (7 to
// 40 hex digits) any hash, an RFC 3339 time any time.
func lineRegexp(l string) *regexp.Regexp {
	var b strings.Builder
	for i, part := range strings.Split(strings.TrimRight(l, " "), "…") {
		if i > 0 {
			b.WriteString(`.*`)
		}
		q := regexp.QuoteMeta(part)
		q = timestamp.ReplaceAllString(q, `\S+`)
		q = hexWord.ReplaceAllStringFunc(q, func(w string) string {
			if len(w) >= 7 && len(w) <= 40 {
				return `[0-9a-f]{7,40}`
			}
			return w
		})
		b.WriteString(q)
	}
	return regexp.MustCompile(`^` + b.String() + `$`)
}
