package term

import (
	"io"
	"os"

	"golang.org/x/term"
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

// IsTerminal reports whether w (or r) is a terminal. A character device
// is not enough: /dev/null is one too (stdin of a systemd service). A
// writer that wraps another (Unwrap() io.Writer) is one when that is.
func IsTerminal(w any) bool {
	if u, ok := w.(interface{ Unwrap() io.Writer }); ok {
		return IsTerminal(u.Unwrap())
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// ColorEnv is Color with the environment read through getenv, where a
// variable set to "" counts as unset; a nil getenv is Color.
func ColorEnv(w io.Writer, getenv func(string) string) bool {
	if getenv == nil {
		return Color(w)
	}
	return ColorIn(w, func(k string) (string, bool) {
		v := getenv(k)
		return v, v != ""
	})
}
