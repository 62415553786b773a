package render

import (
	"encoding/xml"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/lint"
)

func TestJUnitGolden(t *testing.T) {
	golden(t, "lint.junit.golden", render(t, "junit", mixedReport(), testOpts))
	golden(t, "lint-empty.junit.golden", render(t, "junit", emptyReport(), testOpts))
}

type parsedJUnit struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Errors   int      `xml:"errors,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Cases    []struct {
			Name      string `xml:"name,attr"`
			ClassName string `xml:"classname,attr"`
			Failures  []struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			SystemOut *string `xml:"system-out"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func parseJUnit(t *testing.T, rep lint.Report) parsedJUnit {
	t.Helper()
	var p parsedJUnit
	if err := xml.Unmarshal(render(t, "junit", rep, testOpts), &p); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestJUnitParses(t *testing.T) {
	p := parseJUnit(t, mixedReport())
	// 3 files; apps/web.yaml has 2 objects, the others 1 each: 4 testcases.
	// Failing: deployment.apps/web, poddisruptionbudget.policy/web, base/empty.yaml.
	if p.Tests != 4 || p.Failures != 3 || p.Errors != 0 {
		t.Errorf("testsuites tests=%d failures=%d errors=%d, want 4 3 0", p.Tests, p.Failures, p.Errors)
	}
	type want struct {
		suite string
		cases []string
		fails int
	}
	wants := []want{
		{"apps/web.yaml", []string{"deployment.apps/web in prod", "poddisruptionbudget.policy/web"}, 2},
		{"base/empty.yaml", []string{"base/empty.yaml"}, 1},
		{"my dir/cm.yaml", []string{"configmap/settings in prod"}, 0},
	}
	if len(p.Suites) != len(wants) {
		t.Fatalf("%d suites, want %d", len(p.Suites), len(wants))
	}
	for i, w := range wants {
		s := p.Suites[i]
		if s.Name != w.suite || s.Tests != len(w.cases) || s.Failures != w.fails || len(s.Cases) != len(w.cases) {
			t.Errorf("suite %d: name=%q tests=%d failures=%d cases=%d, want %+v", i, s.Name, s.Tests, s.Failures, len(s.Cases), w)
			continue
		}
		for j, c := range s.Cases {
			if c.Name != w.cases[j] || c.ClassName != w.suite || len(c.Failures) > 1 {
				t.Errorf("suite %s case %d: %q classname %q, %d failures", w.suite, j, c.Name, c.ClassName, len(c.Failures))
			}
		}
	}

	web := p.Suites[0].Cases[0]
	if len(web.Failures) != 1 {
		t.Fatal("deployment.apps/web has no failure")
	}
	f := web.Failures[0]
	if f.Type != "schema" || f.Message != `spec.replicas: expected integer, got string "two"` ||
		!strings.Contains(f.Text, `apps/web.yaml:3:1: schema: spec.replicas`) {
		t.Errorf("failure = %+v", f)
	}
	if web.SystemOut == nil || !strings.Contains(*web.SystemOut, "warning apps/web.yaml:12:16: no-latest-tag:") {
		t.Errorf("warning missing from system-out: %v", web.SystemOut)
	}
	if pdb := p.Suites[0].Cases[1]; !strings.Contains(*pdb.SystemOut, "info apps/web.yaml:30:3: deprecated-api: policy/v1beta1 is removed in 1.25\nuse policy/v1") {
		t.Errorf("info missing from system-out: %q", *pdb.SystemOut)
	}
	if cm := p.Suites[2].Cases[0]; !strings.Contains(*cm.SystemOut, `data key "a,b:c" is not <portable> & 100% wrong`) {
		t.Errorf("escaped message did not round-trip: %q", *cm.SystemOut)
	}
	if e := p.Suites[1].Cases[0].Failures[0].Text; !strings.Contains(e, "base/empty.yaml:1:1: parse:") {
		t.Errorf("file-level failure text = %q", e)
	}
}

func TestJUnitEmpty(t *testing.T) {
	p := parseJUnit(t, emptyReport())
	if p.Tests != 1 || p.Failures != 0 || len(p.Suites) != 1 || len(p.Suites[0].Cases) != 1 {
		t.Fatalf("empty report: %+v", p)
	}
	if c := p.Suites[0].Cases[0]; c.Name != "3 files (5 objects)" || len(c.Failures) != 0 {
		t.Errorf("empty report testcase = %+v", c)
	}
}

// objectsReport is mixedReport as lint reports it with Options.ListObjects:
// the objects linted, two of them passing (one in a file with no finding),
// and a finding an overlay's patch makes about a base's object.
func objectsReport() lint.Report {
	rep := mixedReport()
	rep.Findings = append(rep.Findings, lint.Finding{File: "overlays/prod/patch.yaml", Line: 7, Col: 9, Severity: lint.Error,
		Rule: "schema", Message: "spec.template.spec.containers[0].ports[0].containerPort: expected integer", Object: "deployment.apps/web", Namespace: "prod"})
	lint.Sort(rep.Findings)
	rep.Linted = []lint.ObjectRef{
		{File: "apps/web.yaml", Line: 1, Object: "deployment.apps/web", Namespace: "prod"},
		{File: "apps/web.yaml", Line: 25, Object: "poddisruptionbudget.policy/web"},
		{File: "apps/web.yaml", Line: 40, Object: "service/web", Namespace: "prod"},
		{File: "my dir/cm.yaml", Line: 1, Object: "configmap/settings", Namespace: "prod"},
		{File: "ok.yaml", Line: 1, Object: "serviceaccount/web", Namespace: "prod"},
	}
	rep.Objects = len(rep.Linted)
	rep.Files = 4
	return rep
}

func TestJUnitEveryObject(t *testing.T) {
	golden(t, "lint-objects.junit.golden", render(t, "junit", objectsReport(), testOpts))
	p := parseJUnit(t, objectsReport())
	// 5 objects + the file-level case of base/empty.yaml; failing: web,
	// the PDB, base/empty.yaml.
	if p.Tests != 6 || p.Failures != 3 || p.Errors != 0 {
		t.Errorf("testsuites tests=%d failures=%d errors=%d, want 6 3 0", p.Tests, p.Failures, p.Errors)
	}
	type want struct {
		suite string
		cases []string
		fails int
	}
	wants := []want{
		{"apps/web.yaml", []string{"deployment.apps/web in prod", "poddisruptionbudget.policy/web", "service/web in prod"}, 2},
		{"base/empty.yaml", []string{"base/empty.yaml"}, 1},
		{"my dir/cm.yaml", []string{"configmap/settings in prod"}, 0},
		{"ok.yaml", []string{"serviceaccount/web in prod"}, 0},
	}
	if len(p.Suites) != len(wants) {
		t.Fatalf("%d suites, want %d: %+v", len(p.Suites), len(wants), p.Suites)
	}
	for i, w := range wants {
		s := p.Suites[i]
		if s.Name != w.suite || s.Tests != len(w.cases) || s.Failures != w.fails || len(s.Cases) != len(w.cases) {
			t.Errorf("suite %d: name=%q tests=%d failures=%d cases=%d, want %+v", i, s.Name, s.Tests, s.Failures, len(s.Cases), w)
			continue
		}
		for j, c := range s.Cases {
			if c.Name != w.cases[j] || c.ClassName != w.suite {
				t.Errorf("suite %s case %d: %q classname %q", w.suite, j, c.Name, c.ClassName)
			}
		}
	}
	web := p.Suites[0].Cases[0]
	if len(web.Failures) != 1 || !strings.Contains(web.Failures[0].Text, "overlays/prod/patch.yaml:7:9: schema: spec.template") ||
		!strings.Contains(web.Failures[0].Text, "apps/web.yaml:3:1: schema: spec.replicas") {
		t.Errorf("the overlay's finding is not in the object's testcase: %+v", web.Failures)
	}
	if svc := p.Suites[0].Cases[2]; len(svc.Failures) != 0 || svc.SystemOut != nil {
		t.Errorf("passing object has output: %+v", svc)
	}
}

// With objects listed and no finding, every object is a passing testcase.
func TestJUnitAllPassing(t *testing.T) {
	rep := objectsReport()
	rep.Findings = nil
	p := parseJUnit(t, rep)
	if p.Tests != 5 || p.Failures != 0 || len(p.Suites) != 3 {
		t.Fatalf("all passing: tests=%d failures=%d suites=%d, want 5 0 3", p.Tests, p.Failures, len(p.Suites))
	}
	for _, s := range p.Suites {
		if s.Name == junitSuiteName {
			t.Error("the summary suite is written though objects are listed")
		}
	}
}
