package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kubeplan/kubeplan/internal/benchkit"
)

// findingsTitle is the docs section of the findings variant.
const findingsTitle = "## lint: memory with 80,000 findings"

// copies is how many times the findings variant repeats the corpus.
const copies = 5

// makeCopies writes two trees of copies of corpus: dup, where every object
// is there copies times (the CRD once), so that all but the first copy are
// duplicate-object findings; and distinct, the same files with each
// copy's namespaces renamed (team- to t2-, ...), so no object repeats.
func makeCopies(corpus, dup, distinct string) error {
	entries, err := os.ReadDir(corpus)
	if err != nil {
		return err
	}
	for _, d := range []string{dup, distinct} {
		if err := os.RemoveAll(d); err != nil {
			return err
		}
	}
	for c := 1; c <= copies; c++ {
		for _, e := range entries {
			if c > 1 && e.Name() == widgetCRDFile {
				continue
			}
			b, err := os.ReadFile(filepath.Join(corpus, e.Name()))
			if err != nil {
				return err
			}
			renamed := []byte(strings.ReplaceAll(string(b), "team-", fmt.Sprintf("t%d-", c)))
			for _, w := range []struct {
				dir  string
				data []byte
			}{{dup, b}, {distinct, renamed}} {
				dir := filepath.Join(w.dir, fmt.Sprintf("copy-%d", c))
				if err := os.MkdirAll(dir, 0o755); err != nil {
					return err
				}
				if err := os.WriteFile(filepath.Join(dir, e.Name()), w.data, 0o644); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// findingsResult is the findings variant: kubeplan on both trees, runs
// alternating.
type findingsResult struct {
	Dup, Distinct         []sample
	DupDet, DistinctDet   string // kubeplan's summary line of each
	Objects, DupFindings  int
	DupCmd, DistinctCmd   string
	LoadBefore, LoadAfter string
	RSSFrom               string // how peak RSS was measured
}

// measureFindings runs kp over dup and distinct, runs times each.
func measureFindings(kp tool, benchDir string, runs int) (*findingsResult, error) {
	res := &findingsResult{LoadBefore: benchkit.LoadAverage()}
	dup, distinct := kp, kp
	dup.Args = []string{"lint", "-o", "json", "dup"}
	distinct.Args = []string{"lint", "-o", "json", "distinct"}
	res.DupCmd, res.DistinctCmd = dup.CommandLine(), distinct.CommandLine()
	dup, dupRSS := benchkit.Timed(dup, benchDir)
	distinct, distinctRSS := benchkit.Timed(distinct, benchDir)
	res.RSSFrom = "the child's `rusage.ru_maxrss`, which is never below this benchmark process's own peak"
	if dupRSS != "" {
		res.RSSFrom = "`/usr/bin/time -f %M` around kubeplan (rusage from a small parent: exact)"
	}
	if _, _, err := distinct.Run(0); err != nil { // warm-up
		return nil, err
	}
	var dupOut, distinctOut []byte
	for i := 0; i < runs; i++ {
		a, out, err := benchkit.RunTimed(distinct, distinctRSS)
		if err != nil {
			return nil, err
		}
		distinctOut = out
		b, out, err := benchkit.RunTimed(dup, dupRSS)
		if err != nil {
			return nil, err
		}
		dupOut = out
		res.Distinct, res.Dup = append(res.Distinct, a), append(res.Dup, b)
		step("findings run %d/%d: distinct %s %s, duplicated %s %s", i+1, runs, secs(a.Wall), mib(a.MaxRSS), secs(b.Wall), mib(b.MaxRSS))
	}
	var err error
	if res.DistinctDet, _, _, err = kubeplanCounts(distinctOut); err != nil {
		return nil, err
	}
	var rules map[string]int
	if res.DupDet, res.Objects, rules, err = kubeplanCounts(dupOut); err != nil {
		return nil, err
	}
	res.DupFindings = rules["duplicate-object"]
	res.LoadAfter = benchkit.LoadAverage()
	return res, nil
}

func (r *findingsResult) markdown() string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	d, n := benchkit.Summarize(r.Dup), benchkit.Summarize(r.Distinct)
	ratio := benchkit.Div(float64(d.PeakRSS), float64(n.PeakRSS))
	verdict := "PASS"
	if ratio > 2 {
		verdict = "FAIL"
	}
	p("%s\n\n", findingsTitle)
	p("Part of `make bench-lint` (`go run ./tools/benchlint`; `-findings-runs 0` skips it).\n\n")
	p("Target: %d objects with %d duplicate-object findings take at most 2× the peak RSS of the same corpus with none.\n\n", r.Objects, r.DupFindings)
	p("**Result: %s** — peak RSS %.2f×.\n\n", verdict, ratio)
	p("| %d runs each, alternating | no duplicates | every object %d times | ratio |\n|---|---:|---:|---:|\n", len(r.Dup), copies)
	p("| median wall | %s | %s | %.2f× |\n", secs(n.MedianWall), secs(d.MedianWall), benchkit.Div(float64(d.MedianWall), float64(n.MedianWall)))
	p("| median CPU (user+sys) | %s | %s | %.2f× |\n", secs(n.MedianCPU), secs(d.MedianCPU), benchkit.Div(float64(d.MedianCPU), float64(n.MedianCPU)))
	p("| peak RSS (max over runs) | %s | %s | **%.2f×** |\n\n", mib(n.PeakRSS), mib(d.PeakRSS), ratio)
	p("- Trees: the corpus above copied %d times into `.bench/lint/dup/copy-N` (the Widget CRD once), and into `.bench/lint/distinct/copy-N` with each copy's namespaces renamed (`team-` to `tN-`), so that no object repeats.\n", copies)
	p("- Commands: `%s` and `%s` (in `.bench/lint`).\n", r.DupCmd, r.DistinctCmd)
	p("- kubeplan's summaries: duplicated: %s; distinct: %s.\n", r.DupDet, r.DistinctDet)
	p("- Text output lists at most 100 findings per rule and counts the rest (`-o json` lists all); these runs write JSON, all findings.\n")
	p("- Peak RSS: %s.\n", r.RSSFrom)
	p("- Load average (1 min) before/after: %s / %s.\n", r.LoadBefore, r.LoadAfter)
	return b.String()
}

// kubeplanCounts reads kubeplan's JSON output: a summary line, the objects
// linted and the findings by rule.
func kubeplanCounts(out []byte) (summary string, objects int, rules map[string]int, err error) {
	var doc struct {
		Summary struct {
			Errors, Warnings, Files, Objects int
		} `json:"summary"`
		Findings []struct {
			Rule string `json:"rule"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		return "", 0, nil, fmt.Errorf("reading kubeplan's JSON output: %w", err)
	}
	rules = map[string]int{}
	for _, f := range doc.Findings {
		rules[f.Rule]++
	}
	s := doc.Summary
	summary = fmt.Sprintf("files %d, objects %d, errors %d (duplicate-object %d, schema %d, crd-schema %d)", s.Files, s.Objects, s.Errors, rules["duplicate-object"], rules["schema"], rules["crd-schema"])
	return summary, s.Objects, rules, nil
}
