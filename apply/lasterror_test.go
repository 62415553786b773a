package apply

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// The parent's last-error is cut at 4 KiB on a character boundary, so a
// long error in any language stays valid text.
func TestLastErrorCutOnACharacter(t *testing.T) {
	got := lastError(errors.New("x" + strings.Repeat("é", 3000)))
	if !utf8.ValidString(got) || !strings.HasSuffix(got, "...") || len(got) > 4096+len("...") || len(got) < 4090 {
		t.Errorf("last error of %d bytes, valid %v, ends %q", len(got), utf8.ValidString(got), got[len(got)-5:])
	}
	if short := lastError(errors.New("lint found 1 error")); short != "lint found 1 error" {
		t.Errorf("a short error is changed: %q", short)
	}
}
