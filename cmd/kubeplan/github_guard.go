package main

import (
	"io"
	"os"
	"reflect"

	"github.com/kubeplan/kubeplan/internal/ghactions"
)

// guarded is s with stdout and stderr behind ghactions Guards in GitHub
// mode (GITHUB_ACTIONS=true, or --output github): everything kubeplan
// prints there holds text from the repository (values, diff lines, file
// names, messages, errors), and the runner would take a line of it that
// starts with "::" or holds "##[" for a workflow command. A Guard escapes
// those; kubeplan's own commands go through its Commands writer
// (ghactions.CommandWriter).
func (s streams) guarded(args []string) streams {
	if !s.githubMode() && !githubOutput(args) {
		return s
	}
	out, err := ghactions.NewGuards(s.out, s.err, sameStream(s.out, s.err))
	s.out, s.err = out, err
	return s
}

// githubOutput reports whether args ask for --output github.
func githubOutput(args []string) bool {
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

// sameStream reports whether a and b write into one pipe or file (2>&1),
// so their Guards must share where the line stands.
func sameStream(a, b io.Writer) bool {
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
