// Package term answers one question for every command that prints: may it
// use colour on this writer?
package term

import (
	"io"
	"os"
)

// Color reports whether w is a terminal and NO_COLOR is unset
// (https://no-color.org: set to anything, even empty, it turns colour off).
func Color(w io.Writer) bool { return ColorIn(w, os.LookupEnv) }

// ColorIn is Color with the environment looked up by lookup.
func ColorIn(w io.Writer, lookup func(string) (string, bool)) bool {
	if _, ok := lookup("NO_COLOR"); ok {
		return false
	}
	return IsTerminal(w)
}

// IsTerminal reports whether w (or r) is a terminal.
func IsTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
