package benchkit

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ModuleRoot finds the directory of kubeplan's go.mod at or above the
// current directory.
func ModuleRoot() (string, error) {
	d, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && strings.Contains(string(b), "module github.com/kubeplan/kubeplan\n") {
			return d, nil
		}
		up := filepath.Dir(d)
		if up == d {
			return "", errors.New("run me inside the kubeplan module (no go.mod of github.com/kubeplan/kubeplan found)")
		}
		d = up
	}
}

// Rel is p relative to root when it lies below it, else p.
func Rel(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

// Median of xs (0 for none).
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Div is a/b, 0 when b is 0.
func Div(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// WriteDoc replaces the section titled title in the Markdown file at path
// (from its heading to the next "## " heading), or appends it.
func WriteDoc(path, title, section string) error {
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	text := string(old)
	if text == "" {
		text = "# Benchmarks\n\nHow fast kubeplan is, measured, and how to measure it again.\n\n"
	}
	if i := strings.Index(text, title+"\n"); i >= 0 {
		end := len(text)
		if j := strings.Index(text[i+len(title):], "\n## "); j >= 0 {
			end = i + len(title) + j + 1
		}
		text = text[:i] + section + "\n" + text[end:]
	} else {
		if !strings.HasSuffix(text, "\n\n") {
			text = strings.TrimRight(text, "\n") + "\n\n"
		}
		text += section
	}
	text = strings.TrimRight(text, "\n") + "\n"
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

// Publish prints a benchmark's section on stdout and, when doc is set
// (relative to root unless absolute), writes it there with WriteDoc. It
// reports what it wrote through step.
func Publish(root, doc, title, section string, step func(string, ...any)) error {
	fmt.Println()
	fmt.Print(section)
	if doc == "" {
		return nil
	}
	path := doc
	if !filepath.IsAbs(path) {
		path = filepath.Join(root, path)
	}
	if err := WriteDoc(path, title, section); err != nil {
		return fmt.Errorf("writing %s: %w", doc, err)
	}
	step("wrote %s", doc)
	return nil
}
