package render

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/kubeplan/kubeplan/lint"
)

// JSONVersion is the version of the lint JSON document. It changes only
// when a field is removed or changes meaning; new fields may appear at any
// time and readers must ignore fields they do not know.
const JSONVersion = 1

// lintJSON writes the report as one JSON document (two-space indent, final
// newline). This is the documented, stable shape of `kubeplan lint --output json`:
//
//	{
//	  "version": 1,
//	  "summary": {
//	    "errors": 1,       // findings with severity "error"
//	    "warnings": 1,     // findings with severity "warning"
//	    "infos": 0,        // findings with severity "info"
//	    "files": 3,        // files read
//	    "objects": 5       // Kubernetes objects read
//	  },
//	  "findings": [        // always an array, [] when there are none; in the
//	    {                  // order lint produced them (file, line, column, rule, message)
//	      "file": "apps/web.yaml",        // path as given on the command line, or "-" for stdin
//	      "line": 3,                      // 1-based; 0 when unknown (about the whole file)
//	      "column": 1,                    // 1-based; 0 when unknown
//	      "endLine": 3,                   // optional, end of the range
//	      "endColumn": 18,                // optional
//	      "severity": "error",            // "error", "warning" or "info"
//	      "rule": "schema",               // rule id, usable in config to disable or re-grade it
//	      "message": "spec.replicas: expected integer, got string",
//	      "object": "deployment.apps/web",// optional, kubectl-style kind.group/name
//	      "namespace": "prod",            // optional
//	      "field": "spec.replicas"        // optional, dotted path of the field
//	    }
//	  ]
//	}
//
// Optional fields are left out when empty. The exit code, not this
// document, says whether lint passed.
func lintJSON(w io.Writer, rep lint.Report, _ LintOptions) error {
	findings := rep.Findings
	if findings == nil {
		findings = []lint.Finding{}
	}
	doc := jsonLintDoc{
		Version: JSONVersion,
		Summary: jsonSummary{
			Errors:   rep.Count(lint.Error),
			Warnings: rep.Count(lint.Warning),
			Infos:    rep.Count(lint.Info),
			Files:    rep.Files,
			Objects:  rep.Objects,
		},
		Findings: findings,
	}
	return writeLintJSON(w, doc)
}

// writeLintJSON writes doc as writeJSONRaw would, but one finding at a
// time, so that memory does not grow with the findings beyond the report
// itself (80,000 findings are 40 MB of JSON).
func writeLintJSON(w io.Writer, doc jsonLintDoc) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "{\n  \"version\": %d,\n  \"summary\": ", doc.Version)
	if err := encNoHTMLEscape(bw, doc.Summary, "  "); err != nil {
		return err
	}
	if len(doc.Findings) == 0 {
		bw.WriteString(",\n  \"findings\": []\n}\n")
		return bw.Flush()
	}
	bw.WriteString(",\n  \"findings\": [\n")
	for i, f := range doc.Findings {
		if i > 0 {
			bw.WriteString(",\n")
		}
		bw.WriteString("    ")
		if err := encNoHTMLEscape(bw, f, "    "); err != nil {
			return err
		}
	}
	bw.WriteString("\n  ]\n}\n")
	return bw.Flush()
}

// encNoHTMLEscape writes v indented under prefix without escaping <, >
// and & (as writeJSONRaw), without a trailing newline.
func encNoHTMLEscape(w io.Writer, v any, prefix string) error {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	e.SetIndent(prefix, "  ")
	if err := e.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	return err
}

type jsonLintDoc struct {
	Version  int            `json:"version"`
	Summary  jsonSummary    `json:"summary"`
	Findings []lint.Finding `json:"findings"`
}

type jsonSummary struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
	Files    int `json:"files"`
	Objects  int `json:"objects"`
}
