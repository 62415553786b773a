package main

import (
	"fmt"
	"strings"
)

// splitWords splits a command line into words the way a POSIX shell would
// for the commands the stories use: blanks separate words, single and double
// quotes group (a backslash escapes the next character inside double quotes
// and outside quotes). Anything else a shell does (variables, globs, pipes)
// is not supported: the stories do not need it.
func splitWords(line string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	quote := rune(0)
	runes := []rune(line)
	for i := 0; i < len(runes); i++ {
		r := runes[i]
		switch {
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				w.WriteRune(r)
			}
		case r == '\\' && quote != '\'':
			if i+1 == len(runes) {
				return nil, fmt.Errorf("%q: a backslash ends the line", line)
			}
			i++
			w.WriteRune(runes[i])
			inWord = true
		case quote == '"':
			if r == '"' {
				quote = 0
			} else {
				w.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("%q: unclosed %c quote", line, quote)
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}
