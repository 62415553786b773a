package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/kubeplan/kubeplan/internal/benchkit"
)

// The benchmark measures each side with benchkit.
type (
	tool   = benchkit.Tool
	sample = benchkit.Sample
)

// peerFound is kubeconform's summary line.
type peerFound struct {
	Resources, Valid, Invalid, Errors, Skipped int
}

func (f peerFound) String() string {
	return fmt.Sprintf("%d resources: %d valid, %d invalid, %d errors, %d skipped", f.Resources, f.Valid, f.Invalid, f.Errors, f.Skipped)
}

var summaryRE = regexp.MustCompile(`Summary: (\d+) resources? found .*Valid: (\d+), Invalid: (\d+), Errors: (\d+), Skipped: (\d+)`)

// parsePeer reads kubeconform's -summary line, e.g. "Summary: 62 resources
// found parsing stdin - Valid: 62, Invalid: 0, Errors: 0, Skipped: 0".
func parsePeer(out []byte) (peerFound, error) {
	m := summaryRE.FindStringSubmatch(string(out))
	if m == nil {
		return peerFound{}, fmt.Errorf("no kubeconform summary in its output: %s", benchkit.FirstLines(string(out), 5))
	}
	n := make([]int, 5)
	for i := range n {
		n[i], _ = strconv.Atoi(m[i+1])
	}
	return peerFound{n[0], n[1], n[2], n[3], n[4]}, nil
}

// kpFound is kubeplan lint's JSON summary.
type kpFound struct {
	Files, Objects, Errors, Warnings int
	Examples                         []string
}

func (f kpFound) String() string {
	s := fmt.Sprintf("%d objects in %d files: %d errors, %d warnings", f.Objects, f.Files, f.Errors, f.Warnings)
	if len(f.Examples) > 0 {
		s += " (" + strings.Join(f.Examples, "; ") + ")"
	}
	return s
}

// parseKubeplan reads `kubeplan lint -o json`.
func parseKubeplan(out []byte) (kpFound, error) {
	var doc struct {
		Summary struct {
			Errors, Warnings, Files, Objects int
		} `json:"summary"`
		Findings []struct {
			File    string `json:"file"`
			Line    int    `json:"line"`
			Message string `json:"message"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		return kpFound{}, fmt.Errorf("reading kubeplan's JSON output: %w", err)
	}
	s := doc.Summary
	f := kpFound{Files: s.Files, Objects: s.Objects, Errors: s.Errors, Warnings: s.Warnings}
	for i := 0; i < len(doc.Findings) && i < 2; i++ {
		d := doc.Findings[i]
		f.Examples = append(f.Examples, fmt.Sprintf("%s:%d: %s", d.File, d.Line, d.Message))
	}
	return f, nil
}
