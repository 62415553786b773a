package main

import (
	"fmt"
	"io"

	"github.com/kubeplan/kubeplan/internal/term"
)

// printer shows the story: step headers, commands as "$ ..." lines, the
// commands' own output as it comes, and what each check found. Colour only
// on a terminal, and never with NO_COLOR set.
type printer struct {
	w     io.Writer
	color bool
}

func newPrinter(w io.Writer) *printer {
	return &printer{w: w, color: isTerminal(w)}
}

const (
	bold  = "\x1b[1m"
	cyan  = "\x1b[36m"
	green = "\x1b[32m"
	dim   = "\x1b[2m"
	reset = "\x1b[0m"
)

func (p *printer) paint(style, s string) string {
	if !p.color {
		return s
	}
	return style + s + reset
}

func (p *printer) title(s string)   { fmt.Fprintf(p.w, "%s\n", p.paint(bold, s)) }
func (p *printer) line(s string)    { fmt.Fprintln(p.w, s) }
func (p *printer) header(s string)  { fmt.Fprintf(p.w, "\n%s\n", p.paint(bold, "== "+s)) }
func (p *printer) command(s string) { fmt.Fprintf(p.w, "%s\n", p.paint(cyan, "$ "+s)) }
func (p *printer) note(s string)    { fmt.Fprintf(p.w, "%s\n", p.paint(dim, s)) }
func (p *printer) ok(s string)      { fmt.Fprintf(p.w, "%s %s\n", p.paint(green, "ok:"), s) }
func (p *printer) output(s string)  { io.WriteString(p.w, s) }

// outputWriter is where commands write their output.
func (p *printer) outputWriter() io.Writer { return p.w }

// isTerminal reports whether w is a terminal and NO_COLOR is unset.
func isTerminal(w io.Writer) bool { return term.Color(w) }
