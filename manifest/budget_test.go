package manifest_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/bombcorpus"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/loader"
)

// Every shape of the bomb corpus is refused unparsed, with one problem
// naming the file and what to do; ordinary objects of the same size load.
func TestBombShapesRefused(t *testing.T) {
	dir := t.TempDir()
	files, _, err := bombcorpus.Write(dir, 4<<20, bombcorpus.Shapes...)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		res := load(t, f)
		if len(res.Objects) != 0 || len(res.Problems) != 1 {
			t.Errorf("%s: %d objects, %d problems; want only the refusal", filepath.Base(f), len(res.Objects), len(res.Problems))
			continue
		}
		p := res.Problems[0]
		if p.File != f || p.Line != 1 || p.Rule != "invalid-yaml" || !strings.Contains(p.Message, "denser than any set of manifests") || !strings.Contains(p.Message, "split the file") {
			t.Errorf("%s: %s:%d [%s] %s", filepath.Base(f), p.File, p.Line, p.Rule, p.Message)
		}
	}
	ordinary, _, err := bombcorpus.Write(dir, 4<<20, bombcorpus.Ordinary)
	if err != nil {
		t.Fatal(err)
	}
	res := load(t, ordinary...)
	if len(res.Problems) != 0 || len(res.Objects) < 6000 {
		t.Errorf("ordinary Deployments: %d objects, problems %v", len(res.Objects), res.Problems)
	}
	dense, _, err := bombcorpus.Write(dir, 4<<20, bombcorpus.Dense...)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range dense {
		if res := load(t, f); len(res.Problems) != 0 || len(res.Objects) == 0 {
			t.Errorf("%s, just above the line: %d objects, problems %v", filepath.Base(f), len(res.Objects), res.Problems)
		}
	}
	var b strings.Builder
	for i := range 10_000 {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: team-%d}\n", i)
	}
	if objs, probs := manifest.Parse("namespaces.yaml", []byte(b.String())); len(objs) != 10_000 || len(probs) != 0 {
		t.Errorf("10,000 Namespaces: %d objects, problems %v", len(objs), probs)
	}
}

// Within FreeUnits a file is never refused, however dense.
func TestSmallDenseFileLoads(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: small}\ndata: {")
	for i := range 10_000 {
		fmt.Fprintf(&b, "k%d: v,", i)
	}
	b.WriteString("z: v}\n")
	data := b.String()
	objs, probs := manifest.Parse("small.yaml", []byte(data))
	if len(objs) != 1 || len(probs) != 0 {
		t.Fatalf("%d objects, %d problems", len(objs), len(probs))
	}
}

// A file of broken documents is reported in MaxFileProblems problems and
// a last one saying the rest was not read.
func TestProblemsPerFileBounded(t *testing.T) {
	data := strings.Repeat("---\na: [\n---\n"+bombcorpus.Ordinary.Doc(1), 200)
	_, probs := manifest.Parse("broken.yaml", []byte(data))
	if len(probs) != manifest.MaxFileProblems+1 {
		t.Fatalf("%d problems, want %d; the first: %v", len(probs), manifest.MaxFileProblems+1, probs[0])
	}
	last := probs[len(probs)-1]
	if !strings.Contains(last.Message, "the rest of it, from this line, is not read") || last.Line <= probs[len(probs)-2].Line {
		t.Errorf("last problem: %d: %s", last.Line, last.Message)
	}
}

// Once the run's context is done, Load starts nothing more and says why.
func TestLoadStopsWithContext(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := bombcorpus.Write(dir, 64<<10, bombcorpus.Ordinary); err != nil {
		t.Fatal(err)
	}
	cause := errors.New("interrupted by SIGTERM")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(cause)
	_, err := loader.Load([]string{dir}, loader.Options{Context: ctx})
	if !errors.Is(err, cause) || !strings.Contains(err.Error(), "loading stopped: interrupted by SIGTERM") {
		t.Fatalf("Load after cancel: %v", err)
	}
	srcs, err := loader.Collect([]string{dir}, loader.Options{Context: ctx})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := srcs[0].Load(); !errors.Is(err, cause) {
		t.Fatalf("Source.Load after cancel: %v", err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatal(err)
	}
}
