package guardtest

import (
	"fmt"
	"os"
	"path/filepath"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeplan/kubeplan/internal/confine"
	"github.com/kubeplan/kubeplan/internal/testfiles"
	"github.com/kubeplan/kubeplan/lint/admission"
)

// Run runs every policy test under dir, as kubeplan policy test does: the
// admission policies' kubeplan-test.yaml files (admission.RunTests) and
// the guard rules' kubeplan-guard-test.yaml files, in one report. dir may
// also be one test file of either kind. An error means dir could not be
// read or holds no test; a test file that is not valid is a Problem of the
// report.
//
// Every file is read through internal/confine inside the checkout holding
// dir, as admission.RunTests reads its own: the test files, the rule files
// and kubeplan.yaml they name, links followed, must resolve inside it.
func Run(dir string) (*admission.TestReport, error) {
	root, err := testRoot(dir)
	if err != nil {
		return nil, err
	}
	guardFiles, admissionFiles, err := testFiles(dir, root)
	if err != nil {
		return nil, err
	}
	if len(guardFiles) == 0 && len(admissionFiles) == 0 {
		return nil, fmt.Errorf("no %s or %s under %s", admission.TestFileName, TestFileName, dir)
	}
	rep := &admission.TestReport{}
	if len(admissionFiles) > 0 {
		if rep, err = admission.RunTests(dir); err != nil {
			return nil, err
		}
	}
	for _, f := range guardFiles {
		rep.Files = append(rep.Files, f)
		n := len(rep.Cases)
		runFile(f, root, rep)
		for _, c := range rep.Cases[n:] {
			if c.Mismatch == "" {
				rep.Passed++
			} else {
				rep.Failed++
			}
		}
	}
	return rep, nil
}

// testRoot is the resolved directory everything a test reads must resolve
// inside: the checkout holding dir when dir is named inside it; for a dir
// the workflow names outside the checkout, the git work tree holding it,
// else dir itself (admission.RunTests decides the same way).
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

// testFiles finds the guard tests and the admission tests under dir, each
// sorted; a file named on its own is a guard test by its name or its kind
// (GuardTest), else an admission test.
func testFiles(dir, root string) (guard, adm []string, err error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, nil, err
	}
	if !st.IsDir() {
		if filepath.Base(dir) == TestFileName || isGuardTest(dir, root) {
			return []string{dir}, nil, nil
		}
		return nil, []string{dir}, nil
	}
	found, err := testfiles.Under(dir, TestFileName, admission.TestFileName)
	guard, adm = found[TestFileName], found[admission.TestFileName]
	return guard, adm, err
}

// isGuardTest says whether file says kind: GuardTest; a file that cannot
// be read is left to the admission tests' reader, which says why.
func isGuardTest(file, root string) bool {
	data, err := confine.ReadFile(file, root)
	if err != nil {
		return false
	}
	var head struct {
		Kind string `yaml:"kind"`
	}
	return yaml.Unmarshal(data, &head) == nil && head.Kind == "GuardTest"
}
