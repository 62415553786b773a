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
