// Package term answers one question for every command that prints: may it
// use colour on this writer?
package term

import (
	"io"
	"os"
)

// Color reports whether w is a terminal and NO_COLOR is unset
// (https://no-color.org: set to anything, even empty, it turns colour off).
func Color(w io.Writer) bool {
	if _, ok := os.LookupEnv("NO_COLOR"); ok {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
