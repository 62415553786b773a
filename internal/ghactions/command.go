package ghactions

import (
	"io"
	"strconv"
	"strings"
)

// Property is one key=value pair of a workflow command. Properties keep the
// order they are given in, so output is deterministic.
type Property struct {
	Key, Value string
}

// Command is one workflow command line, "::Name props::Message".
type Command struct {
	Name       string
	Properties []Property
	Message    string
}

// String formats the command without a trailing newline. Properties with an
// empty value are left out, as @actions/core does.
func (c Command) String() string {
	var b strings.Builder
	b.WriteString("::")
	b.WriteString(c.Name)
	first := true
	for _, p := range c.Properties {
		if p.Value == "" {
			continue
		}
		if first {
			b.WriteByte(' ')
			first = false
		} else {
			b.WriteByte(',')
		}
		b.WriteString(p.Key)
		b.WriteByte('=')
		b.WriteString(EscapeProperty(p.Value))
	}
	b.WriteString("::")
	b.WriteString(EscapeData(c.Message))
	return b.String()
}

// WriteTo writes the command and a newline to w.
func (c Command) WriteTo(w io.Writer) (int64, error) {
	n, err := io.WriteString(w, c.String()+"\n")
	return int64(n), err
}

// Level is the kind of annotation: error, warning or notice.
type Level string

const (
	LevelError   Level = "error"
	LevelWarning Level = "warning"
	LevelNotice  Level = "notice"
)

// Annotation is an error, warning or notice shown on a file and line in the
// pull request and the run page. Zero positions are left out, which makes
// the annotation apply to the whole file (or to no file when File is empty).
type Annotation struct {
	Level     Level
	File      string
	Line      int
	Col       int
	EndLine   int
	EndColumn int
	Title     string
	Message   string
}

// Command returns the workflow command for the annotation.
func (a Annotation) Command() Command {
	return Command{
		Name: string(a.Level),
		Properties: []Property{
			{"file", a.File},
			{"line", itoa(a.Line)},
			{"col", itoa(a.Col)},
			{"endLine", itoa(a.EndLine)},
			{"endColumn", itoa(a.EndColumn)},
			{"title", a.Title},
		},
		Message: a.Message,
	}
}

// String formats the annotation as a workflow command line, without newline.
func (a Annotation) String() string { return a.Command().String() }

// AddMask returns the command that makes the runner mask value in all later
// log output. Write it before the value can appear anywhere.
func AddMask(value string) Command {
	return Command{Name: "add-mask", Message: value}
}

// itoa formats positive numbers; zero and below become "" so the property is
// left out.
func itoa(n int) string {
	if n <= 0 {
		return ""
	}
	return strconv.Itoa(n)
}
