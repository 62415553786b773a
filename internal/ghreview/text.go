package ghreview

import (
	"strconv"
	"strings"
	"unicode"
)

// maxText bounds a note or reason: text from the API or a repository
// must not flood a message.
const maxText = 500

// printable makes s safe to print: characters that are not graphic
// (control characters, a terminal's escapes, format characters) become
// their \u escape, and it is cut at maxText characters.
func printable(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == maxText {
			b.WriteString("…")
			break
		}
		n++
		if r == ' ' || unicode.IsGraphic(r) && !unicode.Is(unicode.Cf, r) {
			b.WriteRune(r)
			continue
		}
		q := strconv.QuoteRuneToASCII(r)
		b.WriteString(q[1 : len(q)-1])
	}
	return b.String()
}

// apiError is an API failure: what was being done, then the request and
// GitHub's answer, made printable (GitHub's message is text from the
// network).
type apiError struct {
	doing string
	err   error
}

func apiErr(doing string, err error) error { return &apiError{doing: doing, err: err} }

func (e *apiError) Error() string { return printable(e.doing + ": " + e.err.Error()) }

func (e *apiError) Unwrap() error { return e.err }

func itoa(n int) string { return strconv.Itoa(n) }
