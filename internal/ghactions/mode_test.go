package ghactions

import (
	"bytes"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
)

func TestGitHubOutputArg(t *testing.T) {
	for args, want := range map[string]bool{
		"lint -o github .":        true,
		"lint --output github":    true,
		"lint --output=github":    true,
		"lint -ogithub":           true,
		"lint -o text github":     false,
		"lint -- --output=github": false,
		"plan":                    false,
	} {
		if got := OutputArg(splitArgs(args)); got != want {
			t.Errorf("OutputArg(%q) = %v, want %v", args, got, want)
		}
	}
}

func splitArgs(s string) []string { return strings.Fields(s) }

// Two descriptors of one pipe (2>&1) are one stream; two pipes are two.
func TestSameStream(t *testing.T) {
	r1, w1, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r1.Close()
	defer w1.Close()
	r2, w2, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	defer w2.Close()
	fd, err := syscall.Dup(int(w1.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	dup := os.NewFile(uintptr(fd), "dup")
	defer dup.Close()
	var a, b bytes.Buffer
	for _, tc := range []struct {
		name string
		x, y io.Writer
		want bool
	}{
		{"one pipe", w1, dup, true},
		{"two pipes", w1, w2, false},
		{"one buffer", &a, &a, true},
		{"two buffers", &a, &b, false},
	} {
		if got := SameStream(tc.x, tc.y); got != tc.want {
			t.Errorf("%s: SameStream = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// In GitHub mode a workflow command in what kubeplan prints is escaped;
// elsewhere the streams are left as they are.
func TestGuarded(t *testing.T) {
	var out, errw bytes.Buffer
	inActions := Env(func(k string) string {
		if k == "GITHUB_ACTIONS" {
			return "true"
		}
		return ""
	})
	for name, args := range map[string][]string{"GITHUB_ACTIONS": {"plan"}, "--output github": {"plan", "-o", "github"}} {
		out.Reset()
		env := inActions
		if name != "GITHUB_ACTIONS" {
			env = Env(func(string) string { return "" })
		}
		o, _ := env.Guarded(args, &out, &errw)
		if _, err := io.WriteString(o, "::error::from the repository\n"); err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(out.String(), "::error::") {
			t.Errorf("%s: a workflow command went through: %q", name, out.String())
		}
	}
	o, e := Env(func(string) string { return "" }).Guarded([]string{"plan"}, &out, &errw)
	if o != io.Writer(&out) || e != io.Writer(&errw) {
		t.Error("outside GitHub mode the streams were wrapped")
	}
}
