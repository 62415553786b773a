package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
)

// detection is what one tool reported as invalid: objects keyed by
// objectKey, and files (relative to the corpus directory).
type detection struct {
	Objects  map[string]bool
	Files    map[string]bool
	Reports  int    // error results (kubeconform) or error findings (kubeplan)
	Summary  string // the tool's own summary line
	Examples []string
}

// objectKey identifies an object across both tools' outputs: each corpus
// file holds one namespace, so file, kind and name are enough.
func objectKey(file, kind, name string) string {
	return filepath.ToSlash(filepath.Clean(file)) + " " + strings.ToLower(kind) + "/" + name
}

// expectedDetection is what the generator made invalid.
func expectedDetection(m *corpusManifest) detection {
	d := detection{Objects: map[string]bool{}, Files: map[string]bool{}}
	for _, inv := range m.Invalid {
		d.Objects[objectKey(inv.File, inv.Kind, inv.Name)] = true
		d.Files[inv.File] = true
	}
	d.Reports = len(m.Invalid)
	return d
}

// parseKubeconform reads `kubeconform -output json -summary`. Paths are
// made relative to corpusRel, the corpus directory as given to the tool.
func parseKubeconform(out []byte, corpusRel string) (detection, error) {
	var doc struct {
		Resources []struct {
			Filename string `json:"filename"`
			Kind     string `json:"kind"`
			Name     string `json:"name"`
			Status   string `json:"status"`
			Msg      string `json:"msg"`
		} `json:"resources"`
		Summary struct {
			Valid, Invalid, Errors, Skipped int
		} `json:"summary"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		return detection{}, fmt.Errorf("reading kubeconform's JSON output: %w", err)
	}
	d := detection{Objects: map[string]bool{}, Files: map[string]bool{}}
	for _, r := range doc.Resources {
		if r.Status != "statusInvalid" && r.Status != "statusError" {
			continue
		}
		file := relTo(corpusRel, r.Filename)
		d.Objects[objectKey(file, r.Kind, r.Name)] = true
		d.Files[file] = true
		d.Reports++
		if len(d.Examples) < 3 {
			d.Examples = append(d.Examples, fmt.Sprintf("%s: %s %s: %s", file, r.Kind, r.Name, r.Msg))
		}
	}
	s := doc.Summary
	d.Summary = fmt.Sprintf("valid %d, invalid %d, errors %d, skipped %d", s.Valid, s.Invalid, s.Errors, s.Skipped)
	return d, nil
}

// parseKubeplan reads `kubeplan lint -o json`; only error findings count.
func parseKubeplan(out []byte, corpusRel string) (detection, error) {
	var doc struct {
		Summary struct {
			Errors, Warnings, Infos, Files, Objects int
		} `json:"summary"`
		Findings []struct {
			File     string `json:"file"`
			Line     int    `json:"line"`
			Col      int    `json:"column"`
			Severity string `json:"severity"`
			Rule     string `json:"rule"`
			Message  string `json:"message"`
			Object   string `json:"object"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		return detection{}, fmt.Errorf("reading kubeplan's JSON output: %w", err)
	}
	d := detection{Objects: map[string]bool{}, Files: map[string]bool{}}
	for _, f := range doc.Findings {
		if f.Severity != "error" {
			continue
		}
		file := relTo(corpusRel, f.File)
		kind, name := splitObject(f.Object)
		d.Objects[objectKey(file, kind, name)] = true
		d.Files[file] = true
		d.Reports++
		if len(d.Examples) < 3 {
			d.Examples = append(d.Examples, fmt.Sprintf("%s:%d:%d: %s [%s]", file, f.Line, f.Col, f.Message, f.Rule))
		}
	}
	s := doc.Summary
	d.Summary = fmt.Sprintf("files %d, objects %d, errors %d, warnings %d, infos %d", s.Files, s.Objects, s.Errors, s.Warnings, s.Infos)
	return d, nil
}

// splitObject turns kubeplan's "deployment.apps/web" into ("deployment", "web").
func splitObject(o string) (kind, name string) {
	kg, name, ok := strings.Cut(o, "/")
	if !ok {
		return "", ""
	}
	kind, _, _ = strings.Cut(kg, ".")
	return kind, name
}

func relTo(base, p string) string {
	if r, err := filepath.Rel(base, p); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(p)
}

// diff lists the keys of a that are not in b, sorted.
func diff(a, b map[string]bool) []string {
	var out []string
	for k := range a {
		if !b[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
