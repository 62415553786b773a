package arguments

import (
	"embed"
	"strings"
)

//go:embed help/*.txt
var helpFiles embed.FS

// Help is the --help text of verb (help/VERB.txt), ending with the exit
// codes every verb shares when the text asks for them with a last line
// "{{exit-codes}}".
func Help(verb string) string {
	return strings.TrimRight(strings.ReplaceAll(helpText(verb), "{{exit-codes}}", ExitCodesHelp()), "\n")
}

// Example is the --help examples of verb (help/VERB.example.txt).
func Example(verb string) string { return strings.TrimRight(helpText(verb+".example"), "\n") }

// ExitCodesHelp ends every verb's --help: the exit codes.
func ExitCodesHelp() string { return strings.TrimRight(helpText("exit-codes"), "\n") }

// helpText is help/NAME.txt; a name without a file is a programming error
// the help tests catch, so it panics.
func helpText(name string) string {
	b, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic("arguments: no help/" + name + ".txt")
	}
	return string(b)
}
