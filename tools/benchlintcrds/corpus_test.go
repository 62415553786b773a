package main

import (
	"fmt"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/lint"
)

// The generated corpus has the advertised shape, and kubeplan finds
// exactly the custom resources made invalid, each once: the generated
// schemas and objects agree everywhere else.
func TestGeneratedCorpus(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "corpus")
	m, err := generate(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m.CRDs != numCRDs || m.UsedKinds != 25 || m.Files != 173 || m.CRs != appFiles*crsPerAppFile {
		t.Errorf("shape: %d CRDs, %d used kinds, %d files, %d custom resources", m.CRDs, m.UsedKinds, m.Files, m.CRs)
	}
	if m.Bytes < 30<<20 || m.Bytes > 60<<20 {
		t.Errorf("corpus is %d bytes, want about 40 MiB", m.Bytes)
	}
	rep, _, err := lint.Check(lint.Input{Paths: []string{dir}}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	warned := map[string]bool{}
	for _, f := range rep.Findings {
		if f.Rule == "dangling-ref" && f.Severity == lint.Info {
			continue // the corpus's pods name ServiceAccounts it does not define
		}
		if f.Rule == "pod-security" && f.Severity == lint.Warning && f.Namespace == "kubeflow-system" {
			warned[f.Object] = true // the last file's Namespace warns at restricted
			continue
		}
		got = append(got, fmt.Sprintf("%s/%s", f.Namespace, path.Base(f.Object)))
	}
	var want []string
	for _, o := range m.InvalidObjects { // kind/namespace/name
		want = append(want, strings.SplitN(o, "/", 2)[1])
	}
	if n := (numCRDs + crdsPerFile - 1) / crdsPerFile; len(warned) != n {
		t.Errorf("pod-security warnings on %d controllers, want the %d of kubeflow-system: %v", len(warned), n, warned)
	}
	sort.Strings(got)
	sort.Strings(want)
	if !reflect.DeepEqual(got, want) || rep.Objects != m.Objects {
		t.Errorf("%d objects linted of %d; findings on\n%v\nwant on the invalid objects\n%v", rep.Objects, m.Objects, got, want)
	}
}
