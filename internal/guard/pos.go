package guard

import (
	"fmt"
	"strings"
)

// rulePos is "file:line:col" of the value of key in r, or of the rule
// when key has no position.
func rulePos(r Rule, key string) string {
	if p, ok := r.Pos[key]; ok && key != "" {
		return posOf(r.File, p)
	}
	return posOf(r.File, r.At)
}

// exprPos is where a CEL error at line, col (1-based line, 0-based
// column, inside text) is in the file: the position of the expression's
// text (Rule.Pos, where its first character is) plus the offset. A line
// past the first is a line of a block scalar (|), whose lines all start
// at the first's column. In a folded block (>) the offset is not known
// (FoldedSuffix): the error is at the block's start.
func exprPos(r Rule, key, text string, line, col int) string {
	p, ok := r.Pos[key]
	if !ok || line < 1 {
		return rulePos(r, key)
	}
	if _, folded := r.Pos[key+FoldedSuffix]; folded {
		return posOf(r.File, p)
	}
	if line > 1 && !strings.Contains(text, "\n") {
		return posOf(r.File, p)
	}
	return posOf(r.File, Pos{Line: p.Line + line - 1, Col: p.Col + col})
}

func posOf(file string, p Pos) string {
	if file == "" {
		file = "kubeplan.yaml"
	}
	if p.Line == 0 {
		return file
	}
	return fmt.Sprintf("%s:%d:%d", file, p.Line, p.Col)
}

func builtinNames() string {
	names := make([]string, len(builtins))
	for i, b := range builtins {
		names[i] = b.Name
	}
	return strings.Join(names, ", ")
}
