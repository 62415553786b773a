package render

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/kubeplan/kubeplan/lint"
)

// junitSuiteName names the single suite written when there are no findings.
const junitSuiteName = "kubeplan lint"

// lintJUnit writes JUnit XML in the shape Jenkins, GitLab and the common
// GitHub junit reporters read:
//
//   - <testsuites> holds one <testsuite name=FILE> per file with findings, in
//     the order files first appear among the findings.
//   - Each suite holds one <testcase> per object with findings (name is the
//     object, e.g. "deployment.apps/web in prod"), or named after the file
//     for findings about the file itself; classname is the file.
//   - A testcase with error findings gets one <failure> whose message is the
//     first error and whose text lists every error as
//     "path:line:col: rule: message". Warnings and infos never fail a
//     testcase; they are listed the same way in <system-out>.
//   - With no findings, one passing suite named "kubeplan lint" holds one
//     testcase saying how many files and objects were checked.
//
// Counts: tests = testcases, failures = testcases with a <failure>, errors
// is always 0 (a tool failure is an error return, not a report).
func lintJUnit(w io.Writer, rep lint.Report, _ LintOptions) error {
	doc := junitSuites{Name: junitSuiteName}
	if len(rep.Findings) == 0 {
		doc.Suites = []*junitSuite{{
			Name:  junitSuiteName,
			Tests: 1,
			Cases: []*junitCase{{
				Name:      fmt.Sprintf("%s (%s)", plural(rep.Files, "file"), plural(rep.Objects, "object")),
				ClassName: junitSuiteName,
			}},
		}}
	}
	suites := map[string]*junitSuite{}
	cases := map[[2]string]*junitCase{}
	for _, f := range rep.Findings {
		s := suites[f.File]
		if s == nil {
			s = &junitSuite{Name: f.File}
			suites[f.File] = s
			doc.Suites = append(doc.Suites, s)
		}
		name := objectLabel(f)
		if name == "" {
			name = f.File
		}
		c := cases[[2]string{f.File, name}]
		if c == nil {
			c = &junitCase{Name: name, ClassName: f.File}
			cases[[2]string{f.File, name}] = c
			s.Cases = append(s.Cases, c)
		}
		line := fmt.Sprintf("%s: %s: %s\n", position(f), f.Rule, f.Message)
		if f.Severity == lint.Error {
			if c.Failure == nil {
				c.Failure = &junitFailure{Message: f.Message, Type: f.Rule}
			}
			c.Failure.Text += line
		} else {
			if c.SystemOut == nil {
				c.SystemOut = new(string)
			}
			*c.SystemOut += f.Severity.String() + " " + line
		}
	}
	for _, s := range doc.Suites {
		s.Tests = len(s.Cases)
		for _, c := range s.Cases {
			if c.Failure != nil {
				s.Failures++
			}
		}
		doc.Tests += s.Tests
		doc.Failures += s.Failures
	}

	var b strings.Builder
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("junit: %w", err)
	}
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

type junitSuites struct {
	XMLName  xml.Name      `xml:"testsuites"`
	Name     string        `xml:"name,attr"`
	Tests    int           `xml:"tests,attr"`
	Failures int           `xml:"failures,attr"`
	Errors   int           `xml:"errors,attr"`
	Suites   []*junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Cases    []*junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	SystemOut *string       `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}
