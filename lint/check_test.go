package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A --crds file that is not valid YAML is reported as a finding at its
// position, streamed or not (plan once dropped it silently).
func TestCheckReportsCRDFileProblems(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cm := write("cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\n")
	broken := write("broken-crds.yaml", "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: x\n\tspec: {}\n")
	for _, keep := range []bool{false, true} {
		rep, objs, err := Check(Input{Paths: []string{cm}, CRDPaths: []string{broken}, KeepObjects: keep}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		errs := rep.Errors()
		if len(errs) != 1 || errs[0].File != broken || errs[0].Line != 5 || errs[0].Rule != "invalid-yaml" {
			t.Errorf("keep=%v: findings %+v, want one invalid-yaml at %s:5", keep, rep.Findings, broken)
		}
		if keep != (len(objs) == 1) {
			t.Errorf("keep=%v: %d objects kept", keep, len(objs))
		}
	}
	// Rename applies to the CRD files too.
	rep, _, err := Check(Input{Paths: []string{cm}, CRDPaths: []string{broken}, KeepObjects: true,
		Rename: func(p string) string { return strings.TrimPrefix(p, dir+"/") }}, Options{})
	if err != nil || len(rep.Findings) != 1 || rep.Findings[0].File != "broken-crds.yaml" {
		t.Errorf("renamed: %+v %v", rep.Findings, err)
	}
	// An unreadable --crds path is an error, not a finding.
	if _, _, err := Check(Input{Paths: []string{cm}, CRDPaths: []string{filepath.Join(dir, "nope")}}, Options{}); err == nil || !strings.Contains(err.Error(), "--crds") {
		t.Errorf("missing --crds path: %v", err)
	}
}
