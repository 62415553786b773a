package render

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/source"
)

func obj(kind, group, name string, o apply.Outcome) apply.ObjectResult {
	return apply.ObjectResult{Ref: plan.Ref{Group: group, Version: "v1", Kind: kind, Name: name}, Outcome: o}
}

func applyFixture() ApplyReport {
	return ApplyReport{Namespace: "store", ApplySet: "configmap/gitops-applyset",
		Revision: &source.Revision{SHA: "3f2c1e0aaaa", ShortSHA: "3f2c1e0", Subject: "price: 2 `EUR` <b>"},
		Result: &apply.Result{Objects: []apply.ObjectResult{
			obj("Namespace", "", "store", apply.Unchanged),
			obj("Deployment", "apps", "web", apply.Configured),
			obj("ConfigMap", "", "settings", apply.Created),
			obj("Service", "", "web", apply.Unchanged),
			obj("ConfigMap", "", "old", apply.Pruned),
		}}}
}

func applyMD(t *testing.T, r ApplyReport, max int) string {
	t.Helper()
	var b bytes.Buffer
	if err := ApplyMarkdown(&b, r, max); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestApplyMarkdownGolden(t *testing.T) {
	golden(t, "apply.markdown.golden", []byte(applyMD(t, applyFixture(), 0)))
	failed := applyFixture()
	failed.Err = "applying deployment.apps/web: admission webhook denied\nsecond line"
	out := applyMD(t, failed, 0)
	if !strings.Contains(out, "\n> [!CAUTION]\n> The apply failed: applying deployment.apps/web: admission webhook denied<br>second line\n") || strings.Contains(out, "In sync with") {
		t.Errorf("failed apply:\n%s", out)
	}
	if got := ApplySummary(applyFixture().Result); got != "Apply: 1 created, 1 configured, 1 pruned, 2 unchanged." {
		t.Errorf("ApplySummary = %q", got)
	}
}

func TestApplyReplaced(t *testing.T) {
	r := applyFixture()
	r.Result.Objects = append(r.Result.Objects, obj("Deployment", "apps", "api", apply.Replaced))
	if got := ApplySummary(r.Result); got != "Apply: 1 created, 1 configured, 1 replaced, 1 pruned, 2 unchanged." {
		t.Errorf("ApplySummary = %q", got)
	}
	if out := applyMD(t, r, 0); !strings.Contains(out, "| `deployment.apps/api` | ♻️ replaced |\n") {
		t.Errorf("replaced row missing:\n%s", out)
	}
}

func TestApplyMarkdownCap(t *testing.T) {
	r := ApplyReport{Namespace: "store", Result: &apply.Result{}}
	for i := range 20000 {
		o := apply.Unchanged
		if i%4 == 0 {
			o = apply.Configured
		}
		r.Result.Objects = append(r.Result.Objects, obj("ConfigMap", "", fmt.Sprintf("cm-%05d", i), o))
	}
	full := applyMD(t, r, 0)
	if strings.Count(full, "\n| `configmap/") != 5000 || strings.Count(full, "\n- `configmap/") != 15000 {
		t.Fatal("uncapped output lost rows")
	}
	for _, limit := range []int{len(full) - 1, 200_000, 50_000, 2_000} {
		out := applyMD(t, r, limit)
		if len(out) > limit || !utf8.ValidString(out) {
			t.Errorf("limit %d: %d bytes", limit, len(out))
		}
		if !strings.Contains(out, "left out to stay under the job summary's 1 MiB limit; the full list is in the job log.") {
			t.Errorf("limit %d: no note:\n%s", limit, out[:400])
		}
		// The changed objects go last, and the details block stays closed.
		if strings.Count(out, "<details>") != strings.Count(out, "</details>") {
			t.Errorf("limit %d: unbalanced <details>", limit)
		}
		if strings.Count(out, "\n| `configmap/") < 5000 && strings.Contains(out, "\n- `configmap/") {
			t.Errorf("limit %d: unchanged objects kept while changed ones were cut", limit)
		}
	}
}
