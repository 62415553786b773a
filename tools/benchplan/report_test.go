package main

import (
	"github.com/kubeplan/kubeplan/internal/benchkit"

	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestWriteDocReplacesOnlyItsSection(t *testing.T) {
	path := filepath.Join(t.TempDir(), "benchmarks.md")
	lint := "# Benchmarks\n\nintro\n\n## lint: kubeplan vs kubeconform\n\nlint table\n"
	if err := os.WriteFile(path, []byte(lint), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := benchkit.WriteDoc(path, sectionTitle, sectionTitle+"\n\nfirst\n\n### sub\n\nmore\n"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if err := os.WriteFile(path, append(b, "\n## other\n\nkeep me\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := benchkit.WriteDoc(path, sectionTitle, sectionTitle+"\n\nsecond\n"); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(path)
	got := string(b)
	want := lint + "\n" + sectionTitle + "\n\nsecond\n\n## other\n\nkeep me\n"
	if got != want {
		t.Errorf("document:\n%s\nwant:\n%s", got, want)
	}
}

func TestPairedRatioAndSummary(t *testing.T) {
	s := func(ms int) sample { return sample{Wall: time.Duration(ms) * time.Millisecond} }
	a := []sample{s(100), s(300), s(200)}
	b := []sample{s(1000), s(1000), s(1000)}
	if got := pairedRatio(a, b); got != 0.2 {
		t.Errorf("paired ratio %v, want 0.2", got)
	}
	if got := summarize(a); got.MedianWall != 200*time.Millisecond || got.MinWall != 100*time.Millisecond {
		t.Errorf("summary %+v", got)
	}
}

func TestThousandsAndSpecText(t *testing.T) {
	if got := smallSpec.text(); got != "1,000 ConfigMaps + 100 Deployments + 100 Services" {
		t.Errorf("small: %q", got)
	}
	if got := largeSpec.objects(); got != 10000 {
		t.Errorf("large: %d objects", got)
	}
	if !strings.HasPrefix(largeSpec.textOr(), "10,000 objects") {
		t.Errorf("large text %q", largeSpec.textOr())
	}
}
