package render

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func applyFixture() ApplyReport {
	return ApplyReport{Namespace: "store", ApplySet: "configmap/gitops-applyset", Revision: "3f2c1e0", Subject: "price: 2 `EUR` <b>",
		Objects: []ApplyObject{
			{"namespace/store", "unchanged"},
			{"deployment.apps/web", "configured"},
			{"configmap/settings", "created"},
			{"service/web", "unchanged"},
			{"configmap/old", "pruned"},
		}}
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
	if got := ApplySummary(applyFixture().Objects); got != "Apply: 1 created, 1 configured, 1 pruned, 2 unchanged." {
		t.Errorf("ApplySummary = %q", got)
	}
}

func TestApplyReplaced(t *testing.T) {
	r := applyFixture()
	r.Objects = append(r.Objects, ApplyObject{Object: "deployment.apps/api", Outcome: "replaced"})
	if got := ApplySummary(r.Objects); got != "Apply: 1 created, 1 configured, 1 replaced, 1 pruned, 2 unchanged." {
		t.Errorf("ApplySummary = %q", got)
	}
	if out := applyMD(t, r, 0); !strings.Contains(out, "| `deployment.apps/api` | ♻️ replaced |\n") {
		t.Errorf("replaced row missing:\n%s", out)
	}
}

func TestApplyMarkdownCap(t *testing.T) {
	r := ApplyReport{Namespace: "store"}
	for i := range 20000 {
		o := "unchanged"
		if i%4 == 0 {
			o = "configured"
		}
		r.Objects = append(r.Objects, ApplyObject{fmt.Sprintf("configmap/cm-%05d", i), o})
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
