package health

import (
	"slices"
	"strings"
	"unicode"
)

// healthMasked stands for a Secret value in a diagnosis, as plan.Masked
// does in a diff.
const healthMasked = "***"

// masker replaces Secret values in text read from the cluster.
type masker struct{ values []string }

func newMasker(values []string) *masker {
	m := &masker{}
	m.add(values...)
	return m
}

// add adds values to mask; values of fewer than 3 characters are not
// masked (they would mask every "a" and "1" of a log), nor blank ones.
func (m *masker) add(values ...string) {
	for _, v := range values {
		if len(strings.TrimFunc(v, unicode.IsSpace)) < 3 || slices.Contains(m.values, v) {
			continue
		}
		m.values = append(m.values, v)
		// A multi-line value (a key, a certificate) is masked line by
		// line too, since logs and notes are read a line at a time.
		if strings.Contains(v, "\n") {
			for _, l := range strings.Split(v, "\n") {
				m.add(l)
			}
		}
	}
	// Longest first, so a value that contains another is masked whole.
	slices.SortStableFunc(m.values, func(a, b string) int { return len(b) - len(a) })
}

// text returns s with every value replaced by healthMasked and control
// characters other than tab removed (a log is not allowed to move the
// cursor or colour the terminal).
func (m *masker) text(s string) string {
	for _, v := range m.values {
		s = strings.ReplaceAll(s, v, healthMasked)
	}
	return strings.Map(func(r rune) rune {
		if r == '\t' || !unicode.IsControl(r) {
			return r
		}
		return -1
	}, s)
}
