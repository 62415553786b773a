package term

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

func TestColor(t *testing.T) {
	if Color(&bytes.Buffer{}) {
		t.Error("a buffer is not a terminal")
	}
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if Color(f) {
		t.Error("a regular file is not a terminal")
	}
	// /dev/tty is a character device when the test has a terminal; NO_COLOR
	// wins over it either way.
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		t.Setenv("NO_COLOR", "")
		if Color(tty) {
			t.Error("NO_COLOR (even empty) must turn colour off")
		}
	}
}

// /dev/null is a character device but not a terminal: apply run by systemd
// (stdin /dev/null) must not ask a question nobody can answer.
func TestDevNullIsNotATerminal(t *testing.T) {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) {
		t.Error("/dev/null taken for a terminal")
	}
}

// Through getenv, NO_COLOR set to a value turns colour off on a terminal
// and "" counts as unset; a writer that is no terminal is never coloured.
func TestColorEnv(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "NO_COLOR" {
				return v
			}
			return ""
		}
	}
	if ColorEnv(&bytes.Buffer{}, env("")) || ColorEnv(&bytes.Buffer{}, nil) {
		t.Error("a buffer is no terminal, yet coloured")
	}
	tty := openPTY(t)
	if !ColorEnv(tty, env("")) {
		t.Error("a terminal with NO_COLOR empty through getenv is not coloured")
	}
	if ColorEnv(tty, env("1")) {
		t.Error("NO_COLOR=1 through getenv did not turn colour off")
	}
}

// openPTY opens the terminal side of a new pseudo-terminal.
func openPTY(t *testing.T) *os.File {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Fatalf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tty.Close() })
	return tty
}
