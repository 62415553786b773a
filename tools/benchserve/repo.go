package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// spec is the generated repository's size.
type spec struct{ projects, objects int }

func (s spec) namespace(i int) string { return fmt.Sprintf("bench-serve-p%03d", i) }
func (s spec) project(i int) string   { return fmt.Sprintf("p%03d", i) }

// writeRepo writes a git repository of s.projects plain manifest
// directories of s.objects ConfigMaps each and a kubeplan.yaml declaring
// them, committed on main.
func writeRepo(dir string, s spec) error {
	var cfg strings.Builder
	cfg.WriteString("defaults:\n  applyset: configmap/set\nprojects:\n")
	for i := range s.projects {
		fmt.Fprintf(&cfg, "  - name: %s\n    path: apps/%s\n    namespace: %s\n", s.project(i), s.project(i), s.namespace(i))
		var b strings.Builder
		for j := range s.objects {
			fmt.Fprintf(&b, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-%03d\n  labels: {app: bench}\ndata:\n  index: %q\n  payload: %q\n",
				j, fmt.Sprint(j), strings.Repeat("x", 200))
		}
		d := filepath.Join(dir, "apps", s.project(i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(d, "config.yaml"), []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "kubeplan.yaml"), []byte(cfg.String()), 0o644); err != nil {
		return err
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-q", "-m", "bench"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, out)
		}
	}
	return nil
}

// namespacesYAML creates the projects' namespaces.
func namespacesYAML(s spec) string {
	var b strings.Builder
	for i := range s.projects {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n", s.namespace(i))
	}
	return b.String()
}
