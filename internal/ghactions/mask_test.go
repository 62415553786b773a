package ghactions

import (
	"slices"
	"strings"
	"testing"
)

func TestMasks(t *testing.T) {
	got := Masks(
		"hunter22",
		"abc",                          // too short: would mask every "abc" in the log
		"  pad4  ",                     // trimmed, then long enough
		"",                             // nothing
		"line one\nxy\r\nline-two\r\n", // per line; short lines skipped
		"hunter22",                     // duplicate
		"äöüß",                         // four characters, eight bytes
		"äöü",                          // three characters
	)
	want := []string{"hunter22", "line one", "line-two", "pad4", "äöüß"}
	if !slices.Equal(got, want) {
		t.Errorf("Masks = %q, want %q", got, want)
	}
	if Masks() != nil || Masks("", "a\nb") != nil {
		t.Error("no mask expected")
	}
}

func TestWriteMasks(t *testing.T) {
	var b strings.Builder
	if err := WriteMasks(&b, "p%ss:word", "-----BEGIN KEY-----\nMIIEvQ\n-----END KEY-----"); err != nil {
		t.Fatal(err)
	}
	want := "::add-mask::-----BEGIN KEY-----\n::add-mask::-----END KEY-----\n::add-mask::MIIEvQ\n::add-mask::p%25ss:word\n"
	if b.String() != want {
		t.Errorf("got %q\nwant %q", b.String(), want)
	}
}

func TestScrub(t *testing.T) {
	s := "token ghs_abcdef and the password hunter22hunter22, also hunter22 and ab"
	got := Scrub(s, "hunter22", "hunter22hunter22", "ghs_abcdef", "ab")
	want := "token *** and the password ***, also *** and ab"
	if got != want {
		t.Errorf("Scrub = %q, want %q", got, want)
	}
}
