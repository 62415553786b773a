package ownwords

import "testing"

func TestForges(t *testing.T) {
	for v, want := range map[string]bool{
		"prune":            true,
		"2 to prune":       true,
		"to prune,":        true,
		"Plan:":            true,
		"unchanged":        true,
		"12345":            true,
		"in sync with":     true,
		"hunter2hunter2":   false,
		"s3cr3t-pa55word":  false,
		"prune-me-please":  false,
		"correct horse":    false,
		"postgres://u:p@h": false,
	} {
		if got := Forges(v); got != want {
			t.Errorf("Forges(%q) = %v, want %v", v, got, want)
		}
	}
}
