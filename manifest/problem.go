package manifest

import "fmt"

// Pos is a 1-based line and column in a file. The zero Pos means unknown.
type Pos struct {
	Line int `json:"line"`
	Col  int `json:"column"`
}

// Problem is something wrong with the input: it can be reported at a place in
// a file and the user can fix it there.
type Problem struct {
	File string
	Pos
	End Pos
	// Rule is a short id for the kind of problem ("invalid-yaml",
	// "duplicate-key", "not-an-object", ...).
	Rule    string
	Message string
	// Warning marks a problem that does not stop anything (a deprecated
	// kustomize field); lint reports it as a warning.
	Warning bool
	// Info marks what is only worth knowing (a tool's configuration file
	// that is skipped); lint reports it as an info.
	Info bool
}

func (p *Problem) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", p.File, p.Line, p.Col, p.Message)
}
