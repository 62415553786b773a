package confine

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestReadSized checks the one-buffer read of a file of known size: the
// same bytes as the size said, a file that grew since Stat read to its
// end, and one grown past the limit refused.
func TestReadSized(t *testing.T) {
	for _, tc := range []struct {
		name     string
		data     string
		size     int64
		limit    int64
		want     string
		tooLarge bool
	}{
		{name: "exact", data: "kind: A\n", size: 8, limit: 100, want: "kind: A\n"},
		{name: "shrank", data: "kind", size: 8, limit: 100, want: "kind"},
		{name: "grew", data: strings.Repeat("x", 50), size: 8, limit: 100, want: strings.Repeat("x", 50)},
		{name: "grew past the limit", data: strings.Repeat("x", 101), size: 8, limit: 100, tooLarge: true},
		{name: "unknown size", data: "kind: A\n", size: 0, limit: 100, want: "kind: A\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readSized("f.yaml", bytes.NewReader([]byte(tc.data)), tc.size, tc.limit)
			if tc.tooLarge {
				if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "f.yaml") {
					t.Fatalf("got %q, %v; want a refusal naming f.yaml", got, err)
				}
				return
			}
			if err != nil || string(got) != tc.want {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}
