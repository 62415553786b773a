package admissiondiff

import (
	"flag"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// update rewrites testdata/policyobjects.golden from the API server
// (go test ./test/admissiondiff -run TestIntegrationPolicyObjects -update).
var update = flag.Bool("update", false, "rewrite testdata/policyobjects.golden from the API server")

const golden = "testdata/policyobjects.golden"

// readGolden reads the API server's judgements of the corpus as recorded
// by TestIntegrationPolicyObjects: "case-name<TAB>judgement" lines.
func readGolden(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		name, j, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("%s: bad line %q", golden, line)
		}
		out[name] = j
	}
	return out
}

func formatGolden(cases []PolicyCase, js []Judgement) string {
	var b strings.Builder
	for i, c := range cases {
		fmt.Fprintf(&b, "%s\t%s\n", c.Name, js[i])
	}
	return b.String()
}

// The corpus is generated the same every time, is large, names each case
// once, and holds both objects the API server creates and refuses.
func TestPolicyObjectCorpus(t *testing.T) {
	a, err := PolicyObjects()
	if err != nil {
		t.Fatal(err)
	}
	b, err := PolicyObjects()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two generations of the corpus differ")
	}
	if len(a) < 150 {
		t.Fatalf("corpus has %d cases, want at least 150", len(a))
	}
	seen := map[string]bool{}
	for _, c := range a {
		if seen[c.Name] {
			t.Errorf("case %q twice", c.Name)
		}
		seen[c.Name] = true
	}
	g := readGolden(t)
	created, refused := 0, 0
	for _, c := range a {
		j, ok := g[c.Name]
		switch {
		case !ok:
			t.Errorf("case %q has no judgement of the API server in %s: run the integration test with -update", c.Name, golden)
		case j == "created":
			created++
		default:
			refused++
		}
	}
	if len(g) != len(a) {
		t.Errorf("%s has %d cases, the corpus %d", golden, len(g), len(a))
	}
	if created < 30 || refused < 100 {
		t.Errorf("%d created and %d refused; want at least 30 and 100", created, refused)
	}
}

// Offline, lint judges every case of the corpus as the API server did
// when the golden file was recorded (the integration test holds the file
// to a live API server): the same accept or refuse, the same fields.
func TestPolicyObjectsAsRecorded(t *testing.T) {
	cases, err := PolicyObjects()
	if err != nil {
		t.Fatal(err)
	}
	g := readGolden(t)
	for _, mode := range []LintMode{AsPolicies, AsLinted} {
		js, err := LintJudgements(t.TempDir(), cases, mode)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range cases {
			if d := disagreement(g[c.Name], js[i], mode); d != "" {
				t.Errorf("mode %d, %s: %s", mode, c.Name, d)
			}
		}
	}
}

// disagreement says how lint's judgement differs from the server's
// (recorded as text), "" when they agree: both create, or both refuse
// naming the same fields. Field paths are compared as the server would
// print them for the field lint names: the API server's decoding names a
// field of the wrong type without its list index and with the names of
// Go's embedded structs ("spec.validations.expression" for lint's
// "spec.validations[0].expression"). Linting the set (AsLinted) may name
// more fields than the server (lint's schema reports every unknown field
// and wrong type, where the server's decoding stops at the first), never
// fewer.
func disagreement(server string, kubeplan Judgement, mode LintMode) string {
	if server == kubeplan.String() {
		return ""
	}
	if !strings.HasPrefix(server, "refused ") || !kubeplan.Refused {
		return fmt.Sprintf("server %s, kubeplan %s", server, kubeplan)
	}
	theirs := map[string]bool{}
	for _, p := range strings.Split(strings.TrimPrefix(server, "refused "), ",") {
		theirs[normalPath(p)] = true
	}
	ours := map[string]bool{}
	for _, p := range kubeplan.Paths {
		ours[normalPath(p)] = true
	}
	var missing, extra []string
	for p := range theirs {
		if !ours[p] {
			missing = append(missing, p)
		}
	}
	for p := range ours {
		if !theirs[p] {
			extra = append(extra, p)
		}
	}
	if len(missing) == 0 && (len(extra) == 0 || mode == AsLinted) {
		return ""
	}
	return fmt.Sprintf("server %s, kubeplan %s (kubeplan misses %q, adds %q)", server, kubeplan, missing, extra)
}

var (
	listIndex  = regexp.MustCompile(`\[\d+\]`)
	goEmbedded = regexp.MustCompile(`\.[A-Z][A-Za-z]+\.`)
)

// normalPath is a field path without list indexes and embedded struct
// names: "spec.matchConstraints.resourceRules[0].operations" and
// "spec.matchConstraints.resourceRules.RuleWithOperations.operations" are
// both "spec.matchConstraints.resourceRules.operations".
func normalPath(p string) string {
	return goEmbedded.ReplaceAllString(listIndex.ReplaceAllString(p, ""), ".")
}
