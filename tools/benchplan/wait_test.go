package main

import (
	"strings"
	"testing"
	"time"
)

// TestWaitMarkdownVerdict: the section judges the fail-fast median wall
// time against the baseline's, 1.05× at most.
func TestWaitMarkdownVerdict(t *testing.T) {
	res := func(failFast time.Duration) *waitResult {
		r := &waitResult{Runs: 2, Baseline: "abc1234", Versions: map[string]string{}, Commands: map[string]string{},
			Samples: map[string][]sample{}}
		r.Corpus.Dir = "corpus-1200"
		r.Corpus.Info = &corpusInfo{Spec: smallSpec, Files: 100}
		for _, v := range waitVariants {
			wall := 10 * time.Second
			if v == wFailFast {
				wall = failFast
			}
			r.Samples[v] = []sample{{Wall: wall, CPU: time.Second}, {Wall: wall, CPU: time.Second}}
		}
		return r
	}
	if md := res(10400 * time.Millisecond).markdown(); !strings.Contains(md, "**Result: PASS**: with fail fast (the default) 1.04×") {
		t.Errorf("1.04× is within the target:\n%s", md)
	}
	md := res(11 * time.Second).markdown()
	if !strings.Contains(md, "**Result: FAIL**: with fail fast (the default) 1.10×") {
		t.Errorf("1.10× is over the target:\n%s", md)
	}
	for _, want := range []string{"commit abc1234", "1,200-object corpus", "| fail-fast | 11.00 s | 1.10× |"} {
		if !strings.Contains(md, want) {
			t.Errorf("section lacks %q:\n%s", want, md)
		}
	}
}
