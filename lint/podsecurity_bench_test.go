package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkPodSecurity lints 2,000 Deployments (20 files of 100) with the
// pod-security rule off; with no level (nothing is judged); enforcing
// baseline:v1.24, which they pass (the evaluation alone); and enforcing
// restricted with warn at baseline:v1.24, which each breaks five ways
// (the worst case: 10,000 findings, each placed at its field). The cost of
// the rule is the difference between the runs.
func BenchmarkPodSecurity(b *testing.B) {
	dir := b.TempDir()
	for f := range 20 {
		var sb strings.Builder
		for i := range 100 {
			sb.WriteString(strings.Replace(benchDeployment, "name: web\n  labels", fmt.Sprintf("name: web-%d\n  namespace: apps\n  labels", i), 1))
			sb.WriteString("---\n")
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("d%02d.yaml", f)), []byte(sb.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	restricted, err := ParsePodSecurityLevel("restricted")
	if err != nil {
		b.Fatal(err)
	}
	baseline124, err := ParsePodSecurityLevel("baseline:v1.24")
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		opts Options
	}{
		{"off", Options{Rules: map[string]RuleSetting{rulePodSecurity: {Off: true}}}},
		{"no-level", Options{}},
		{"baseline-passing", Options{PodSecurity: &PodSecurity{Enforce: baseline124}}},
		{"restricted-failing", Options{PodSecurity: &PodSecurity{Enforce: restricted, Warn: baseline124}}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			bc.opts.KubeVersion = "1.37"
			b.ReportAllocs()
			for b.Loop() {
				rep, _, err := Check(Input{Paths: []string{dir}}, bc.opts)
				if err != nil {
					b.Fatal(err)
				}
				if rep.Objects != 2000 {
					b.Fatalf("%d objects", rep.Objects)
				}
			}
		})
	}
}
