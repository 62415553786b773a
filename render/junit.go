package render

import (
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/kubeplan/kubeplan/lint"
)

// junitSuiteName names the single suite written when there are no findings.
const junitSuiteName = "kubeplan lint"

// lintJUnit writes JUnit XML in the shape Jenkins, GitLab and the common
// GitHub junit reporters read:
//
//   - <testsuites> holds one <testsuite name=FILE> per file with objects
//     or findings, sorted by name.
//   - Each suite holds one <testcase> per object linted (rep.Linted, when
//     lint listed them: passing objects too), in line order, named after
//     the object ("deployment.apps/web in prod"); then one per object with
//     findings that the list lacks; then one named after the file for its
//     findings about no object. classname is the file. A finding about an
//     object goes to that object's testcase, even when it is at another
//     file (an overlay's patch).
//   - A testcase with error findings gets one <failure> whose message is the
//     first error and whose text lists every error as
//     "path:line:col: rule: message". Warnings and infos never fail a
//     testcase; they are listed the same way in <system-out>.
//   - With no objects listed and no findings, one passing suite named
//     "kubeplan lint" holds one testcase saying how many files and objects
//     were checked.
//
// Counts: tests = testcases, failures = testcases with a <failure>, errors
// is always 0 (a tool failure is an error return, not a report).
func lintJUnit(w io.Writer, rep lint.Report, _ LintOptions) error {
	doc := junitSuites{Name: junitSuiteName}
	if len(rep.Findings) == 0 && len(rep.Linted) == 0 {
		doc.Suites = []*junitSuite{{
			Name:  junitSuiteName,
			Tests: 1,
			Cases: []*junitCase{{
				Name:      fmt.Sprintf("%s (%s)", plural(rep.Files, "file"), plural(rep.Objects, "object")),
				ClassName: junitSuiteName,
			}},
		}}
	}
	b := junitBuilder{suites: map[string]*junitSuite{}, cases: map[[2]string]*junitCase{}, byLabel: map[string][]*junitCase{}}
	for _, o := range rep.Linted {
		b.caseFor(o.File, objectRefLabel(o))
	}
	for _, f := range rep.Findings {
		c := b.caseOfFinding(f)
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
	sort.SliceStable(b.order, func(i, j int) bool { return b.order[i].Name < b.order[j].Name })
	doc.Suites = append(doc.Suites, b.order...)
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

	var out strings.Builder
	out.WriteString(xml.Header)
	enc := xml.NewEncoder(&out)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("junit: %w", err)
	}
	out.WriteByte('\n')
	_, err := io.WriteString(w, out.String())
	return err
}

// junitBuilder makes the suites and testcases of a report.
type junitBuilder struct {
	order   []*junitSuite
	suites  map[string]*junitSuite
	cases   map[[2]string]*junitCase // file, name
	byLabel map[string][]*junitCase  // the testcases of each object label
}

// caseFor returns the testcase named name in file's suite, made if new.
func (b *junitBuilder) caseFor(file, name string) *junitCase {
	if c := b.cases[[2]string{file, name}]; c != nil {
		return c
	}
	s := b.suites[file]
	if s == nil {
		s = &junitSuite{Name: file}
		b.suites[file] = s
		b.order = append(b.order, s)
	}
	c := &junitCase{Name: name, ClassName: file}
	b.cases[[2]string{file, name}] = c
	b.byLabel[name] = append(b.byLabel[name], c)
	s.Cases = append(s.Cases, c)
	return c
}

// caseOfFinding is the testcase f belongs to: its object's (the one in f's
// file when two files hold that object), or its file's.
func (b *junitBuilder) caseOfFinding(f lint.Finding) *junitCase {
	name := objectLabel(f)
	if name == "" {
		return b.caseFor(f.File, f.File)
	}
	if c := b.cases[[2]string{f.File, name}]; c != nil {
		return c
	}
	if cs := b.byLabel[name]; len(cs) > 0 {
		return cs[0]
	}
	return b.caseFor(f.File, name)
}

// objectRefLabel names a linted object as objectLabel names a finding's.
func objectRefLabel(o lint.ObjectRef) string {
	return objectLabel(lint.Finding{Object: o.Object, Namespace: o.Namespace})
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
