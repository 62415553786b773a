package healthtest

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/kubeplan/kubeplan/internal/confine"
	"github.com/kubeplan/kubeplan/internal/healthexpr"
	"github.com/kubeplan/kubeplan/internal/testfiles"
)

// Report is the outcome of Run.
type Report struct {
	Files  []string
	Cases  []Case
	Errors []error // test files that could not be read or compiled, at file:line:col
	Passed int
	Failed int
}

// Case is one case's outcome.
type Case struct {
	File      string
	Line, Col int // where its expect: is
	Name      string
	Object    string // Kind.group/name
	Rule      string // the rule that judged it, "" for none
	Want, Got string // current, inProgress, failed; Got "" when no rule is about it
	Message   string // the rule's message
	Mismatch  string // "" when it passed
}

// OK reports whether every case passed and every file was read.
func (r *Report) OK() bool { return r.Failed == 0 && len(r.Errors) == 0 }

// Run runs every kubeplan-health-test.yaml under dir (or the one file dir
// names). An error means dir could not be read or holds no test; a test
// file that is not valid is an Error of the report.
func Run(dir string) (*Report, error) {
	root := confine.RootFor(dir)
	if root == "" {
		real, err := confine.Resolve(dir, "")
		if err != nil {
			return nil, err
		}
		if fi, err := os.Stat(real); err == nil && !fi.IsDir() {
			real = filepath.Dir(real)
		}
		if root = confine.RepoTop(real); root == "" {
			root = real
		}
	}
	files, err := testFiles(dir)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no %s under %s", TestFileName, dir)
	}
	rep := &Report{Files: files}
	for _, f := range files {
		t, err := read(f, root)
		if err != nil {
			rep.Errors = append(rep.Errors, err)
			continue
		}
		for _, c := range t.cases {
			out := judge(t, c)
			if out.Mismatch == "" {
				rep.Passed++
			} else {
				rep.Failed++
			}
			rep.Cases = append(rep.Cases, out)
		}
	}
	return rep, nil
}

// testFiles are the test files under dir, sorted; dir itself when it is a
// file. Hidden directories are skipped.
func testFiles(dir string) ([]string, error) { return testfiles.In(dir, TestFileName) }

// judge evaluates one case.
func judge(t *testFile, c testCase) Case {
	out := Case{File: t.file, Line: c.line, Col: c.col, Name: c.name, Object: objectName(c.object), Want: c.expect}
	r := t.set.For(c.object)
	if r == nil {
		out.Mismatch = fmt.Sprintf("no health rule is about %s: kstatus would judge it", out.Object)
		return out
	}
	res := r.Evaluate(c.object)
	out.Rule, out.Message = ruleName(r.Rule), res.Message
	for word, status := range expects {
		if status == res.Status {
			out.Got = word
		}
	}
	switch {
	case out.Got != c.expect:
		out.Mismatch = fmt.Sprintf("want %s, got %s", c.expect, out.Got)
		if res.Message != "" {
			out.Mismatch += ": " + res.Message
		}
	case c.message != "" && !strings.Contains(res.Message, c.message):
		out.Mismatch = fmt.Sprintf("want a message with %q, got %q", c.message, res.Message)
	}
	return out
}

func ruleName(r healthexpr.Rule) string {
	if n := r.BuiltinName(); n != "" {
		return n
	}
	return r.Name()
}

// objectName is Kind.group/name of obj.
func objectName(obj map[string]any) string {
	av, _ := obj["apiVersion"].(string)
	k, _ := obj["kind"].(string)
	md, _ := obj["metadata"].(map[string]any)
	name, _ := md["name"].(string)
	if g, _, ok := strings.Cut(av, "/"); ok {
		k += "." + g
	}
	return k + "/" + name
}

// WriteText writes the report: a line per case ("ok" or "FAIL", the
// file:line:col of its expect:, its name, object and outcome), the
// errors, then "N passed, M failed in F files".
func (r *Report) WriteText(w io.Writer) error {
	for _, c := range r.Cases {
		label := c.Object
		if c.Name != "" {
			label = c.Name + " (" + c.Object + ")"
		}
		if c.Mismatch == "" {
			fmt.Fprintf(w, "ok    %s:%d:%d: %s: %s by %s\n", c.File, c.Line, c.Col, label, c.Got, c.Rule)
			continue
		}
		fmt.Fprintf(w, "FAIL  %s:%d:%d: %s: %s\n", c.File, c.Line, c.Col, label, c.Mismatch)
	}
	for _, e := range r.Errors {
		for _, line := range strings.Split(e.Error(), "\n") {
			fmt.Fprintf(w, "error %s\n", line)
		}
	}
	fmt.Fprintf(w, "%d passed, %d failed in %d files", r.Passed, r.Failed, len(r.Files))
	if n := len(r.Errors); n > 0 {
		fmt.Fprintf(w, ", %d errors", n)
	}
	_, err := fmt.Fprintln(w)
	return err
}
