package ghactions

import (
	"github.com/kubeplan/kubeplan/internal/ownwords"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// MinMaskLen is the shortest value Masks registers, in characters. The
// runner replaces every occurrence of a masked value in the log, so masking
// "1", "on" or "yes" would turn most of the log into "***" and hide
// nothing: a value that short is not a secret one can recover from a log.
const MinMaskLen = 4

// Masks turns secret values into the strings to register with
// ::add-mask::, following the runner's rules: it matches one log line at
// a time, so a multi-line value is registered line by line. Each line is
// trimmed of surrounding white space; lines shorter than MinMaskLen
// characters are skipped. The result is sorted and has no duplicates, so
// the commands are the same on every run.
func Masks(values ...string) []string {
	var out []string
	for _, v := range values {
		for line := range strings.SplitSeq(v, "\n") {
			line = strings.TrimSpace(line)
			if utf8.RuneCountInString(line) < MinMaskLen || ownwords.Forges(line) {
				continue // see MinMaskLen and ownwords
			}
			out = append(out, line)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// WriteMasks writes one ::add-mask:: command per value in Masks(values...).
// Write them before anything that may hold a value is printed: the runner
// masks only what comes after.
func WriteMasks(w io.Writer, values ...string) error {
	var b strings.Builder
	for _, m := range Masks(values...) {
		b.WriteString(AddMask(m).String())
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Scrub replaces every mask of Masks(values...) in s with "***", the way
// the runner masks its log. Use it on text that goes where the runner does
// not mask, such as a pull-request comment. Longer masks are replaced
// first, so a mask inside another cannot leave part of the longer one.
func Scrub(s string, values ...string) string {
	ms := Masks(values...)
	slices.SortStableFunc(ms, func(a, b string) int { return len(b) - len(a) })
	for _, m := range ms {
		s = strings.ReplaceAll(s, m, "***")
	}
	return s
}
