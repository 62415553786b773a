package admission

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeplan/kubeplan/internal/confine"
	"github.com/kubeplan/kubeplan/internal/testfiles"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/loader"
)

// TestFileName is the name of a policy test file: kubeplan policy test
// DIR runs every one under DIR.
const TestFileName = "kubeplan-test.yaml"

// PolicyTest is a kubeplan-test.yaml (apiVersion kubeplan.dev/v1alpha1,
// kind PolicyTest): the policy files, the resources to judge and the
// verdict expected of each.
type PolicyTest struct {
	APIVersion string       `yaml:"apiVersion"`
	Kind       string       `yaml:"kind"`
	Policies   []string     `yaml:"policies"`
	Resources  []string     `yaml:"resources"`
	Results    []TestResult `yaml:"results"`
}

// TestResult is one expected verdict.
type TestResult struct {
	Policy   string `yaml:"policy"`
	Binding  string `yaml:"binding"`
	Resource string `yaml:"resource"` // KIND/NAME or NAMESPACE/KIND/NAME
	Result   string `yaml:"result"`   // pass, fail or skip
	// Message, with fail, is the API server's message: the validation's
	// ("replicas must be at most 5"), or its whole denial text
	// ("ValidatingAdmissionPolicy 'p' with binding 'b' denied request: ...",
	// with or without `deployments.apps "web" is forbidden: ` before it).
	Message string `yaml:"message"`
	// Line is where the entry starts in the test file.
	Line int `yaml:"-"`
}

// CaseResult is one expected verdict and what the policies said.
type CaseResult struct {
	File string // the test file
	TestResult
	Got        string // pass, fail, skip, not-evaluable
	GotMessage string
	// Mismatch says how Got differs from what was expected, "" when the
	// case holds.
	Mismatch string
}

// TestReport is the outcome of kubeplan policy test.
type TestReport struct {
	Files  []string
	Cases  []CaseResult
	Passed int
	Failed int
	// Problems are policies or files that could not be read or compiled:
	// each fails the run.
	Problems []*manifest.Problem
}

// OK reports whether every case held and nothing failed to load.
func (r *TestReport) OK() bool { return r.Failed == 0 && len(r.Problems) == 0 }

// RunTests runs every kubeplan-test.yaml under dir (dir may also be one
// such file). An error means dir could not be read; a test file that is
// not valid is a Problem of the report.
//
// Every file is read through internal/confine, inside the checkout
// holding dir (confine.RootFor; for a dir the workflow names outside the
// checkout, the git work tree holding it, else dir itself): dir, the test
// files and the policies and resources they name must resolve inside it,
// links followed, and be regular files of bounded size.
func RunTests(dir string) (*TestReport, error) {
	root, err := testRoot(dir)
	if err != nil {
		return nil, err
	}
	files, err := testFiles(dir)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no %s under %s", TestFileName, dir)
	}
	rep := &TestReport{Files: files}
	for _, f := range files {
		runTestFile(f, root, rep)
	}
	for _, c := range rep.Cases {
		if c.Mismatch == "" {
			rep.Passed++
		} else {
			rep.Failed++
		}
	}
	return rep, nil
}

// testRoot is the resolved directory everything a policy test reads must
// resolve inside (see RunTests); dir itself must.
func testRoot(dir string) (string, error) {
	root := confine.RootFor(dir)
	if root == "" {
		real, err := confine.Resolve(dir, "")
		if err != nil {
			return "", err
		}
		if fi, err := os.Stat(real); err == nil && !fi.IsDir() {
			real = filepath.Dir(real)
		}
		if root = confine.RepoTop(real); root == "" {
			root = real
		}
	}
	if _, err := confine.Resolve(dir, root); err != nil {
		return "", err
	}
	return root, nil
}

func testFiles(dir string) ([]string, error) { return testfiles.In(dir, TestFileName) }

// readTest reads and checks one test file.
func readTest(file, inside string) (*PolicyTest, *manifest.Problem) {
	data, err := confine.ReadFile(file, inside)
	if err != nil {
		return nil, &manifest.Problem{File: file, Rule: Rule, Message: err.Error()}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &manifest.Problem{File: file, Pos: manifest.Pos{Line: 1, Col: 1}, Rule: Rule, Message: err.Error()}
	}
	t := &PolicyTest{}
	if err := doc.Decode(t); err != nil {
		return nil, &manifest.Problem{File: file, Pos: manifest.Pos{Line: 1, Col: 1}, Rule: Rule, Message: err.Error()}
	}
	at := func(n *yaml.Node, msg string) *manifest.Problem {
		return &manifest.Problem{File: file, Pos: manifest.Pos{Line: n.Line, Col: n.Column}, Rule: Rule, Message: msg}
	}
	root := &doc
	if len(doc.Content) > 0 {
		root = doc.Content[0]
	}
	if t.APIVersion != "kubeplan.dev/v1alpha1" || t.Kind != "PolicyTest" {
		return nil, at(root, fmt.Sprintf("want apiVersion kubeplan.dev/v1alpha1 and kind PolicyTest, got %q %q", t.APIVersion, t.Kind))
	}
	results := mapValue(root, "results")
	for i := range t.Results {
		r := &t.Results[i]
		n := root
		if results != nil && i < len(results.Content) {
			n = results.Content[i]
		}
		r.Line = n.Line
		switch {
		case r.Policy == "" || r.Resource == "":
			return nil, at(n, "a result needs policy and resource")
		case r.Result != Pass && r.Result != Fail && r.Result != Skip:
			return nil, at(n, fmt.Sprintf("result %q: want pass, fail or skip", r.Result))
		case strings.Count(r.Resource, "/") < 1 || strings.Count(r.Resource, "/") > 2:
			return nil, at(n, fmt.Sprintf("resource %q: want KIND/NAME or NAMESPACE/KIND/NAME", r.Resource))
		}
	}
	return t, nil
}

func mapValue(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// runTestFile loads one test's policies and resources (inside root) and
// judges each expected result.
func runTestFile(file, root string, rep *TestReport) {
	t, prob := readTest(file, root)
	if prob != nil {
		rep.Problems = append(rep.Problems, prob)
		return
	}
	dir := filepath.Dir(file)
	load := func(paths []string, what string) []*manifest.Object {
		if len(paths) == 0 {
			return nil
		}
		full := make([]string, len(paths))
		for i, p := range paths {
			// relative to the test file; an absolute path is taken as
			// named, and like any other must be inside root
			full[i] = p
			if !filepath.IsAbs(p) {
				full[i] = filepath.Join(dir, p)
			}
		}
		res, err := loader.Load(full, loader.Options{Root: root})
		if err != nil {
			rep.Problems = append(rep.Problems, &manifest.Problem{File: file, Rule: Rule, Message: fmt.Sprintf("%s: %v", what, err)})
			return nil
		}
		for _, p := range res.Problems {
			if !p.Info && !p.Warning {
				rep.Problems = append(rep.Problems, p)
			}
		}
		return res.Objects
	}
	pols := load(t.Policies, "policies")
	objs := load(t.Resources, "resources")
	set, probs := Load(append(pols, objs...), Options{})
	for _, p := range probs {
		if !p.Info {
			rep.Problems = append(rep.Problems, p)
		}
	}
	for _, r := range t.Results {
		rep.Cases = append(rep.Cases, judge(set, file, r, objs))
	}
}

// judge compares one expected result with the verdicts.
func judge(set *Set, file string, r TestResult, objs []*manifest.Object) CaseResult {
	c := CaseResult{File: file, TestResult: r}
	obj := findResource(objs, r.Resource)
	if obj == nil {
		c.Mismatch = fmt.Sprintf("no resource %s among the resources", r.Resource)
		return c
	}
	if set == nil || !set.hasPolicy(r.Policy) {
		c.Mismatch = fmt.Sprintf("no ValidatingAdmissionPolicy %s among the policies (or it does not compile)", r.Policy)
		return c
	}
	c.Got = Skip
	var failed *Verdict
	passed := false
	for _, v := range set.Check(obj) {
		if v.Policy != r.Policy || (r.Binding != "" && v.Binding != r.Binding) {
			continue
		}
		switch v.Result {
		case Fail, Error:
			if failed == nil {
				vv := v
				failed = &vv
			}
		case NotEvaluable:
			if failed == nil {
				c.Got, c.GotMessage = NotEvaluable, v.Message
			}
		case Pass:
			passed = true
		}
	}
	switch {
	case failed != nil:
		c.Got, c.GotMessage = Fail, failed.Message
	case c.Got == NotEvaluable:
	case passed:
		c.Got = Pass
	}
	switch {
	case c.Got != r.Result:
		c.Mismatch = fmt.Sprintf("want %s, got %s", r.Result, c.Got)
		if c.GotMessage != "" {
			c.Mismatch += ": " + c.GotMessage
		}
	case r.Result == Fail && r.Message != "" && r.Message != failed.Message && r.Message != failed.DenialText() && r.Message != failed.Forbidden(obj.Name):
		c.Mismatch = fmt.Sprintf("want message %q, got %q", r.Message, failed.Message)
	}
	return c
}

func (s *Set) hasPolicy(name string) bool {
	for _, c := range s.policies {
		if c.policy.Name == name {
			return true
		}
	}
	return false
}

// findResource finds KIND/NAME or NAMESPACE/KIND/NAME (kind in any case).
func findResource(objs []*manifest.Object, ref string) *manifest.Object {
	parts := strings.Split(ref, "/")
	ns := ""
	if len(parts) == 3 {
		ns, parts = parts[0], parts[1:]
	}
	for _, o := range objs {
		if strings.EqualFold(o.Kind, parts[0]) && o.Name == parts[1] && (len(strings.Split(ref, "/")) == 2 || o.Namespace == ns) {
			return o
		}
	}
	return nil
}
