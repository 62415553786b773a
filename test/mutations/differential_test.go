package mutations

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

func TestMain(m *testing.M) { testkube.Main(m) }

// TestIntegrationDifferential sends every mutation to the API server as a
// dry-run create and lints it offline with kubeplan and kubeconform; it
// logs both tables (docs/lint-differential.md) and asserts kubeplan's
// targets: no false error, and at least 99% of the server's rejections
// caught (every kind here is built in).
func TestIntegrationDifferential(t *testing.T) {
	testkube.Integration(t)
	ms, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	cfg, err := clientcmd.BuildConfigFromFlags("", c.AdminKubeconfig())
	if err != nil {
		t.Fatal(err)
	}
	cfg.QPS, cfg.Timeout = -1, 30*time.Second
	dc, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}

	checkBases(t, dc, ns)
	start := time.Now()
	server, err := ServerVerdicts(context.Background(), dc, ns, ms, 16)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d dry-run creates in %s", len(ms), time.Since(start).Round(time.Millisecond))
	dir := t.TempDir()
	if err := WriteFiles(dir, ms); err != nil {
		t.Fatal(err)
	}
	kp, err := LintVerdicts(dir, ms)
	if err != nil {
		t.Fatal(err)
	}
	kc, err := KubeconformVerdicts(ms)
	if err != nil {
		t.Fatal(err)
	}
	kpRows, kcRows := Table(ms, server, kp), Table(ms, server, kc)
	t.Logf("\n%s", Markdown(kpRows, kcRows))

	total := kpRows[len(kpRows)-1]
	if total.ServerRejects == 0 || total.BothAccept == 0 {
		t.Fatalf("the server rejected %d of %d mutations: the run did not measure anything", total.ServerRejects, total.Mutations)
	}
	report(t, "false error (kubeplan rejects, the server accepts)", ms, server, kp, func(s, k bool) bool { return !s && k })
	report(t, "miss (the server rejects, kubeplan accepts)", ms, server, kp, func(s, k bool) bool { return s && !k })
	if total.FalseError != 0 {
		t.Errorf("kubeplan: %d false errors, want 0", total.FalseError)
	}
	if total.Caught() < 0.99 {
		t.Errorf("kubeplan caught %s of the server's %d rejections, want at least 99%%", pct(total.Caught()), total.ServerRejects)
	}
}

// report logs up to 40 mutations where server and tool disagree as pick says.
func report(t *testing.T, what string, ms []Mutation, server, tool []Verdict, pick func(server, tool bool) bool) {
	var lines []string
	for i, m := range ms {
		if pick(server[i].Rejected, tool[i].Rejected) {
			lines = append(lines, fmt.Sprintf("%s %s at %s (%s): server: %s | lint: %s", m.Kind, m.Class, m.Where, m.What, server[i].Message, tool[i].Message))
		}
	}
	if len(lines) > 0 {
		n := len(lines)
		if len(lines) > 400 {
			lines = lines[:400]
		}
		t.Logf("%d %s:\n%s", n, what, strings.Join(lines, "\n"))
	}
}

// checkBases makes sure every base object is valid for the API server,
// kubeplan and kubeconform, so that each rejection of a mutation is the
// mutation's.
func checkBases(t *testing.T, dc dynamic.Interface, ns string) {
	t.Helper()
	bases, err := Bases()
	if err != nil {
		t.Fatal(err)
	}
	var ms []Mutation
	for i, b := range bases {
		ms = append(ms, Mutation{ID: i, Kind: b["kind"].(string), Where: "(base)", Object: b})
	}
	server, err := ServerVerdicts(context.Background(), dc, ns, ms, 4)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := WriteFiles(dir, ms); err != nil {
		t.Fatal(err)
	}
	kp, err := LintVerdicts(dir, ms)
	if err != nil {
		t.Fatal(err)
	}
	kc, err := KubeconformVerdicts(ms)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range ms {
		for _, v := range []struct {
			tool string
			v    Verdict
		}{{"the API server", server[i]}, {"kubeplan", kp[i]}, {"kubeconform", kc[i]}} {
			if v.v.Rejected {
				t.Errorf("base %d (%s) is invalid for %s: %s", i, m.Kind, v.tool, v.v.Message)
			}
		}
	}
	if t.Failed() {
		t.FailNow()
	}
}
