package render

import (
	"fmt"
	"strings"
)

// The sections of a markdown view: parts of rows that are cut from the
// end to stay under a byte limit (mdLay, mdInOrder over the sections and
// mdPrefix over each one's rows), and the note that says so.

// mdSection is a part of the comment that can lose rows from its end.
type mdSection struct {
	one, many string   // what a row is, for the note: "diff", "diffs"
	intro     string   // written before the first row; starts with a blank line
	rows      []string // each ends in a newline
	outro     string   // written after the rows (and the "more" line)
	tail      bool     // when cut, say so under the rows
	bare      bool     // written, intro and outro, even without rows
	kept      int      // rows written by the last fit
}

// more is the line under a cut table.
func (s *mdSection) more(n int) string {
	return fmt.Sprintf("\n_…and %s more not shown._\n", thousands(n))
}

func (s *mdSection) size() int {
	n := len(s.intro) + len(s.outro)
	for _, r := range s.rows {
		n += len(r)
	}
	return n
}

// text is the section with its first s.kept rows.
func (s *mdSection) text() string {
	var b strings.Builder
	b.WriteString(s.intro)
	for _, r := range s.rows[:s.kept] {
		b.WriteString(r)
	}
	if s.tail && s.kept < len(s.rows) {
		b.WriteString(s.more(len(s.rows) - s.kept))
	}
	b.WriteString(s.outro)
	return b.String()
}

// fit keeps the longest prefix of the rows that fits in budget bytes; a
// cut section reserves room for its "…and N more" line (mdParts.fit).
// A section without rows, or one that would show none and says nothing
// when cut, is left out.
func (s *mdSection) fit(budget int) (string, int, bool) {
	s.kept = 0
	if len(s.rows) == 0 {
		if n := s.size(); s.bare && n <= budget {
			return s.text(), n, true
		}
		return "", 0, false
	}
	if n := s.size(); n <= budget {
		s.kept = len(s.rows)
		return s.text(), n, true
	}
	room := budget - len(s.intro) - len(s.outro)
	if s.tail {
		room -= len(s.more(len(s.rows)))
	}
	k := 0 // rows kept: mdPrefix keeps rows[:k]
	_, left := mdLay(mdPrefix, mdParts{n: len(s.rows), fit: func(i, budget int) (string, int, bool) {
		r := s.rows[i]
		if len(r) > budget {
			return "", 0, false
		}
		k = i + 1
		return r, len(r), true
	}}, room)
	if left < 0 || k == 0 && !s.tail {
		return "", 0, false
	}
	s.kept = k
	return s.text(), budget - left, true
}

// mdFit lays out head, the note and as many rows of each section, in
// order, as fit in limit bytes.
func mdFit(head string, secs []*mdSection, limit int, hint mdNoteText) string {
	total := len(head)
	var whole strings.Builder
	whole.WriteString(head)
	for _, s := range secs {
		if len(s.rows) > 0 || s.bare {
			s.kept = len(s.rows)
			total += s.size()
			whole.WriteString(s.text())
		}
	}
	if total <= limit {
		return whole.String()
	}
	// First reserve room for the longest note (every row left out), which
	// always fits what is kept; then try again with the room the actual
	// note takes, and keep that layout only if it still fits.
	out := mdFill(head, secs, limit-len(head)-len(mdNote(secs, hint, true)), hint)
	if again := mdFill(head, secs, limit-len(head)-len(mdNote(secs, hint, false)), hint); len(again) <= limit {
		out = again
	}
	// Cutting bytes only happens when even the head and note do not fit.
	return cutUTF8(out, limit)
}

// mdFill writes head, the note and the sections fitted in order in
// budget bytes (mdInOrder).
func mdFill(head string, secs []*mdSection, budget int, hint mdNoteText) string {
	parts, _ := mdLay(mdInOrder, mdParts{n: len(secs), fit: func(i, budget int) (string, int, bool) {
		return secs[i].fit(budget)
	}}, budget)
	return head + mdNote(secs, hint, false) + strings.Join(parts, "")
}

// mdNoteText is what the note says besides the counts, as markdown: why
// rows were left out ("GitHub's 65,536-character limit") and where the
// full text is (what "plan", where "the job summary", maybe a link).
type mdNoteText struct{ why, what, where string }

// mdNote says what was left out:
//
//	> ⚠️ 3 diffs were left out to stay under GitHub's 65,536-character limit; the full plan is in the job summary.
//
// With worst, it is the longest the note can be: every row left out.
func mdNote(secs []*mdSection, text mdNoteText, worst bool) string {
	var nouns []mdSection // one, many of each kind of row, in order
	count := map[string]int{}
	total := 0
	for _, s := range secs {
		n := len(s.rows) - s.kept
		if worst {
			n = len(s.rows)
		}
		if n == 0 {
			continue
		}
		total += n
		if _, ok := count[s.many]; !ok { // the tables of the stages count as one
			nouns = append(nouns, mdSection{one: s.one, many: s.many})
		}
		count[s.many] += n
	}
	var parts []string
	for _, k := range nouns {
		n := count[k.many]
		noun := k.many
		if n == 1 && !worst {
			noun = k.one
		}
		parts = append(parts, thousands(n)+" "+noun)
	}
	if len(parts) == 0 {
		return ""
	}
	list := joinAnd(parts)
	verb := "were"
	if total == 1 && !worst {
		verb = "was"
	}
	return fmt.Sprintf("\n> ⚠️ %s %s left out to stay under %s; the full %s is in %s.\n", list, verb, text.why, text.what, text.where)
}
