package render

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/kubeplan/kubeplan/lint/admission"
)

// PolicyTestFormats are the formats PolicyTest accepts.
func PolicyTestFormats() []string { return []string{"text", "json"} }

// PolicyTest writes the outcome of kubeplan policy test: for text, a line
// per case ("ok" or "FAIL", the test file and line of the expected result,
// policy, resource, verdict), the problems at their file:line:col, then
// "N passed, M failed in F files"; for json, the report as one document.
func PolicyTest(w io.Writer, format string, r *admission.TestReport) error {
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Version int                    `json:"version"`
			Passed  int                    `json:"passed"`
			Failed  int                    `json:"failed"`
			Files   []string               `json:"files"`
			Cases   []policyTestCaseJSON   `json:"cases"`
			Errors  []policyTestProblemRow `json:"errors"`
		}{1, r.Passed, r.Failed, r.Files, policyTestCases(r), policyTestProblems(r)})
	}
	for _, c := range r.Cases {
		who := c.Policy
		if c.Binding != "" {
			who += " (binding " + c.Binding + ")"
		}
		if c.Mismatch == "" {
			fmt.Fprintf(w, "ok    %s:%d: %s %s: %s\n", c.File, c.Line, who, c.Resource, c.Got)
			continue
		}
		fmt.Fprintf(w, "FAIL  %s:%d: %s %s: %s\n", c.File, c.Line, who, c.Resource, c.Mismatch)
	}
	for _, p := range r.Problems {
		fmt.Fprintf(w, "error %s:%d:%d: %s\n", p.File, p.Line, p.Col, p.Message)
	}
	fmt.Fprintf(w, "%d passed, %d failed in %d files", r.Passed, r.Failed, len(r.Files))
	if n := len(r.Problems); n > 0 {
		fmt.Fprintf(w, ", %d errors", n)
	}
	fmt.Fprintln(w)
	return nil
}

type policyTestCaseJSON struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Policy   string `json:"policy"`
	Binding  string `json:"binding,omitempty"`
	Resource string `json:"resource"`
	Want     string `json:"want"`
	Got      string `json:"got"`
	Message  string `json:"message,omitempty"`
	Mismatch string `json:"mismatch,omitempty"`
}

type policyTestProblemRow struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

func policyTestCases(r *admission.TestReport) []policyTestCaseJSON {
	out := []policyTestCaseJSON{}
	for _, c := range r.Cases {
		out = append(out, policyTestCaseJSON{c.File, c.Line, c.Policy, c.Binding, c.Resource, c.Result, c.Got, c.GotMessage, c.Mismatch})
	}
	return out
}

func policyTestProblems(r *admission.TestReport) []policyTestProblemRow {
	out := []policyTestProblemRow{}
	for _, p := range r.Problems {
		out = append(out, policyTestProblemRow{p.File, p.Line, p.Col, p.Message})
	}
	return out
}
