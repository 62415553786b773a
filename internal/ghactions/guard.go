package ghactions

import (
	"io"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Guard writes untrusted text to a stream the runner reads, so that no line
// of it can be taken for a workflow command, and lets kubeplan's own
// commands through (Commands).
//
// The runner reads stdout and stderr line by line (a line ends at "\n" or
// "\r") and runs a line as a command when, after leading white space, it
// starts with "::" and a known command name (::error::, ::add-mask::,
// ::stop-commands::, ...), or when it holds "##[" followed by a known
// command name and "]" anywhere. Names are matched without regard to case.
// A Guard therefore rewrites, in what it is given to write:
//
//   - a ":" that is the first character of a line after white space (and
//     after characters the runner's culture-aware string comparison may
//     ignore: control and format characters such as U+200B, combining
//     marks, variation selectors), and
//   - a "[" that follows "##" (ignorable characters between them aside),
//
// as an escape in the stream's dialect, decided by its first
// non-white-space byte: in JSON ('{' or '[') "\u003a" and "\u005b", which
// decode to the same string (a "#" only ever occurs inside a JSON string);
// in XML ('<') "&#58;" and "&#91;" (kubeplan's XML has neither CDATA nor
// comments, where they would not decode); in text "%3A" and "%5B". Nothing
// else changes. Everything is written at once, so prompts and progress
// appear as before; an incomplete UTF-8 character ending a write is only
// remembered, to tell what it is when the next write completes it.
//
// This is stateless as far as the runner is concerned: unlike
// ::stop-commands::, whose state the runner shares between stdout and
// stderr (read from two pipes in no fixed order), an escaped line is never
// a command, whatever else is printed around it, in whichever order.
type Guard struct {
	w       io.Writer
	st      *guardState
	carry   []byte // an incomplete UTF-8 character ending the last write
	dialect dialect
}

// guardState is where a stream stands in its current line; two Guards
// writing into one pipe (2>&1) share it.
type guardState struct {
	mu       sync.Mutex
	midLine  bool // something other than white space was written on this line
	anything bool // anything at all was written on this line
	prev     [2]rune
}

type dialect int

const (
	undecided dialect = iota
	textDialect
	jsonDialect
	xmlDialect
)

// NewGuard returns a Guard writing to w.
func NewGuard(w io.Writer) *Guard { return &Guard{w: w, st: &guardState{}} }

// NewGuards returns the Guards of stdout and stderr. merged says they end in
// one pipe (2>&1, or one writer in tests): they then share where the line
// stands, so that one's partial line is not taken for a line start by the
// other.
func NewGuards(stdout, stderr io.Writer, merged bool) (out, err *Guard) {
	out, err = NewGuard(stdout), NewGuard(stderr)
	if merged {
		err.st = out.st
	}
	return out, err
}

// Write writes p with every command-starting ":" and "[" escaped. It
// returns len(p) when everything was written.
func (g *Guard) Write(p []byte) (int, error) {
	g.st.mu.Lock()
	defer g.st.mu.Unlock()
	if g.dialect == undecided {
		g.dialect = decide(p)
	}
	buf := append(g.carry, p...)
	skip := len(g.carry) // already written with the last write
	out := make([]byte, 0, len(buf)+16)
	i := 0
	for i < len(buf) {
		if !utf8.FullRune(buf[i:]) {
			break
		}
		r, n := utf8.DecodeRune(buf[i:])
		out = append(out, g.escape(r, buf[i:i+n])...)
		i += n
	}
	g.carry = append([]byte(nil), buf[i:]...)
	out = append(out, buf[i:]...)
	if _, err := g.w.Write(out[skip:]); err != nil {
		return 0, err
	}
	return len(p), nil
}

// escape returns what to write for the rune r (raw: its bytes) and moves
// the line state on.
func (g *Guard) escape(r rune, raw []byte) []byte {
	st := g.st
	switch {
	case r == '\n' || r == '\r':
		st.midLine, st.anything, st.prev = false, false, [2]rune{}
		return raw
	case ignorable(r):
		st.anything = true
		return raw
	case unicode.IsSpace(r):
		st.anything = true
		st.prev = [2]rune{st.prev[1], r}
		return raw
	}
	esc := raw
	if r == ':' && !st.midLine {
		esc = []byte(g.dialect.colon())
	}
	if r == '[' && st.prev == [2]rune{'#', '#'} {
		esc = []byte(g.dialect.bracket())
	}
	st.midLine, st.anything = true, true
	st.prev = [2]rune{st.prev[1], r}
	return esc
}

// Commands returns the writer for kubeplan's own workflow commands, whole
// lines built with Command (whose values are escaped): they are written as
// they are, on a line of their own.
func (g *Guard) Commands() io.Writer { return commandWriter{g} }

type commandWriter struct{ g *Guard }

func (c commandWriter) Write(p []byte) (int, error) {
	st := c.g.st
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.anything || len(c.g.carry) > 0 {
		if _, err := c.g.w.Write([]byte("\n")); err != nil {
			return 0, err
		}
		c.g.carry = nil
	}
	if _, err := c.g.w.Write(p); err != nil {
		return 0, err
	}
	st.midLine, st.anything, st.prev = false, false, [2]rune{}
	if len(p) > 0 && p[len(p)-1] != '\n' && p[len(p)-1] != '\r' {
		st.midLine, st.anything = true, true
	}
	return len(p), nil
}

// CommandWriter returns where kubeplan's own commands go on w: w's
// Commands when w is a Guard, else w itself (a stream no runner reads
// through a Guard).
func CommandWriter(w io.Writer) io.Writer {
	if c, ok := w.(interface{ Commands() io.Writer }); ok {
		return c.Commands() // a Guard, or a writer over one (render.ScrubWriter)
	}
	return w
}

// decide picks the dialect from the first non-white-space byte of p; p of
// white space only leaves it undecided.
func decide(p []byte) dialect {
	for _, c := range p {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '{', '[':
			return jsonDialect
		case '<':
			return xmlDialect
		}
		return textDialect
	}
	return undecided
}

func (d dialect) colon() string {
	switch d {
	case jsonDialect:
		return `\u003a`
	case xmlDialect:
		return "&#58;"
	}
	return "%3A"
}

func (d dialect) bracket() string {
	switch d {
	case jsonDialect:
		return `\u005b`
	case xmlDialect:
		return "&#91;"
	}
	return "%5B"
}

// ignorable reports whether a culture-aware comparison (the runner's
// string.StartsWith and IndexOf under ICU) may skip r: control and format
// characters (U+0001, U+200B, U+00AD, U+FEFF, ...), combining marks,
// variation selectors and the other default-ignorable code points.
func ignorable(r rune) bool {
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Mn, unicode.Me, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
}
