package term

import (
	"bytes"
	"os"
	"testing"
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
