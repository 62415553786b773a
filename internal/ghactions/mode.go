package ghactions

import (
	"io"
	"os"
	"reflect"
)

// Guarded is stdout and stderr behind Guards in GitHub mode (e says
// GITHUB_ACTIONS=true, or args ask for --output github), else stdout and
// stderr unchanged: everything kubeplan prints there holds text from the
// repository (values, diff lines, file names, messages, errors), and the
// runner would take a line of it that starts with "::" or holds "##[" for
// a workflow command. A Guard escapes those; kubeplan's own commands go
// through its Commands writer (CommandWriter).
func (e Env) Guarded(args []string, stdout, stderr io.Writer) (io.Writer, io.Writer) {
	if !e.InActions() && !OutputArg(args) {
		return stdout, stderr
	}
	out, err := NewGuards(stdout, stderr, SameStream(stdout, stderr))
	return out, err
}

// OutputArg reports whether args ask for --output github (-o github,
// --output=github, -ogithub, -o=github) before a "--".
func OutputArg(args []string) bool {
	for i, a := range args {
		switch {
		case a == "--":
			return false
		case a == "-o" || a == "--output":
			if i+1 < len(args) && args[i+1] == "github" {
				return true
			}
		case a == "--output=github" || a == "-ogithub" || a == "-o=github":
			return true
		}
	}
	return false
}

// SameStream reports whether a and b write into one pipe or file (2>&1),
// so their Guards must share where the line stands.
func SameStream(a, b io.Writer) bool {
	fa, okA := a.(*os.File)
	fb, okB := b.(*os.File)
	if okA && okB {
		sa, errA := fa.Stat()
		sb, errB := fb.Stat()
		return errA == nil && errB == nil && os.SameFile(sa, sb)
	}
	ta, tb := reflect.TypeOf(a), reflect.TypeOf(b)
	return ta != nil && ta == tb && ta.Comparable() && a == b
}
