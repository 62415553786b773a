package lint

import (
	"fmt"
	"strings"
	"testing"
)

// semanticOnly keeps the error and warning findings of rules, as
// "line:col rule message".
func semanticOnly(rep Report, rules ...string) []string {
	var out []string
	for _, f := range rep.Findings {
		for _, r := range rules {
			if f.Rule == r {
				out = append(out, fmt.Sprintf("%d:%d %s %s", f.Line, f.Col, f.Rule, f.Message))
			}
		}
	}
	return out
}

// wantFindings checks got against want, each "line:col rule substring",
// in order.
func wantFindings(t *testing.T, got []string, want ...string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d findings, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i, w := range want {
		pos, rest, _ := strings.Cut(w, " ")
		rule, sub, _ := strings.Cut(rest, " ")
		if !strings.HasPrefix(got[i], pos+" "+rule+" ") || !strings.Contains(got[i], sub) {
			t.Errorf("finding %d = %q, want %q", i, got[i], w)
		}
	}
}

// TestSemanticIssueExamples lints the four examples of the issue, which the
// schema alone passes, in one Deployment: each is reported at its field.
func TestSemanticIssueExamples(t *testing.T) {
	src := `apiVersion: apps/v1
kind: Deployment
metadata:
  name: Frontend_App
spec:
  selector:
    matchLabels: {app: frontend}
  template:
    metadata:
      labels: {app: front-end}
    spec:
      containers:
      - name: web
        image: registry.example.com/web:1.2.3
        imagePullPolicy: Sometimes
        resources:
          requests:
            cpu: 100mm
`
	rep := lintSrc(t, src, Options{})
	wantFindings(t, semanticOnly(rep, ruleInvalidMeta, ruleInvalidValue, "schema"),
		`4:9 invalid-meta metadata.name: "Frontend_App" is not a valid Deployment name (a DNS-1123 subdomain)`,
		"10:21 invalid-value spec.template.metadata.labels: Invalid value: `selector` does not match template `labels`",
		`15:26 invalid-value spec.template.spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"`,
		`18:18 invalid-value spec.template.spec.containers[0].resources.requests.cpu: Invalid value: "100mm": unable to parse quantity's suffix`,
	)
	if n := rep.Count(Error); n != 4 {
		t.Errorf("%d errors, want 4", n)
	}
}
