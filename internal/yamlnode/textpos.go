package yamlnode

import (
	"bytes"

	yaml "go.yaml.in/yaml/v3"
)

// TextPos is the line and column where the text of scalar n starts, for
// errors inside it (a CEL expression's column): after the quote of a
// quoted one; for a block (| or >), on the next line that is not blank,
// at its indentation, read from data (the file's content) when it is
// given, else taken to be two columns past keyCol, the column of the
// mapping's keys, as YAML is usually written.
func TextPos(n *yaml.Node, keyCol int, data []byte) (line, col int) {
	switch n.Style {
	case yaml.SingleQuotedStyle, yaml.DoubleQuotedStyle:
		return n.Line, n.Column + 1
	case yaml.LiteralStyle, yaml.FoldedStyle:
		line := n.Line + 1
		if data != nil {
			lines := bytes.Split(data, []byte("\n"))
			for line-1 < len(lines) && len(bytes.TrimSpace(lines[line-1])) == 0 {
				line++
			}
			if line-1 < len(lines) {
				l := lines[line-1]
				return line, len(l) - len(bytes.TrimLeft(l, " ")) + 1
			}
		}
		return line, keyCol + 2
	}
	return n.Line, n.Column
}
