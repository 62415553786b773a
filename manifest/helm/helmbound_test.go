package helm_test

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/testing/filetree"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/helm"
	"helm.sh/helm/v4/pkg/chart/common"
	"helm.sh/helm/v4/pkg/chart/common/util"
)

// boundChart renders a chart whose only template is tpl and returns its
// one problem and how many bytes the process allocated meanwhile.
func boundChart(t *testing.T, tpl string, h helm.Options) (*manifest.Problem, uint64) {
	t.Helper()
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"Chart.yaml":       "apiVersion: v2\nname: bomb\nversion: 0.1.0\n",
		"templates/t.yaml": tpl,
	})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res := loadChartT(t, dir, h)
	runtime.ReadMemStats(&after)
	if len(res.Problems) != 1 || len(res.Objects) != 0 {
		t.Fatalf("want one problem, got %v and %d objects", res.Problems, len(res.Objects))
	}
	return res.Problems[0], after.TotalAlloc - before.TotalAlloc
}

// Values that grow without bound are refused at the template call that
// would make them, before they take more than a few times the bound.
func TestHelmRenderOutputBounded(t *testing.T) {
	for name, tpl := range map[string]string{
		"doubling print":  `{{ $s := "x" }}{{ range until 64 }}{{ $s = print $s $s }}{{ end }}{{ $s }}`,
		"doubling printf": `{{ $s := "x" }}{{ range until 64 }}{{ $s = printf "%s%s" $s $s }}{{ end }}{{ $s }}`,
		"doubling cat":    `{{ $s := "x" }}{{ range until 64 }}{{ $s = cat $s $s }}{{ end }}{{ $s }}`,
		"doubling list":   `{{ $l := list 1 }}{{ range until 64 }}{{ $l = concat $l $l }}{{ end }}{{ len $l }}`,
		"doubling dict":   `{{ $d := dict }}{{ range until 64 }}{{ $d = dict "a" $d "b" $d }}{{ end }}{{ toJson $d }}`,
		"repeat":          `{{ repeat 1000000000 "xx" }}`,
		"until":           `{{ range until 1000000000 }}{{ end }}`,
		"seq":             `{{ seq 1000000000 }}`,
		"printf width":    `{{ printf "%999999999d" 1 }}`,
		"printf star":     `{{ printf "%*d" 999999999 1 }}`,
		"indent":          `{{ indent 1000000000 "a" }}`,
		"randAlpha":       `{{ randAlpha 1000000000 }}`,
		"replace":         `{{ $s := repeat 1000000 "x" }}{{ replace "" $s $s }}`,
		"join":            `{{ $s := repeat 1000000 "x" }}{{ $l := list }}{{ range until 100 }}{{ $l = append $l $s }}{{ end }}{{ join $s $l }}`,
	} {
		t.Run(name, func(t *testing.T) {
			p, alloc := boundChart(t, "a: |\n  "+tpl+"\n", helm.Options{})
			if p.Rule != "helm-template" || !strings.Contains(p.Message, "64 MiB") {
				t.Errorf("problem %v", p)
			}
			if filepath.Base(p.File) != "t.yaml" || p.Line != 2 {
				t.Errorf("at %s:%d:%d, want the template's line 2", p.File, p.Line, p.Col)
			}
			if alloc > 1<<30 {
				t.Errorf("allocated %d MiB on the way", alloc>>20)
			}
		})
	}
}

// What a template's own text writes counts against the bound too.
func TestHelmRenderTotalBounded(t *testing.T) {
	p, _ := boundChart(t, "{{ range until 300 }}{{ range until 300 }}"+strings.Repeat("x", 800)+"{{ end }}{{ end }}\n", helm.Options{})
	if p.Rule != "helm-template" || !strings.Contains(p.Message, "more than kubeplan's bound of 64 MiB per chart") ||
		filepath.Base(p.File) != "Chart.yaml" {
		t.Errorf("problem %v", p)
	}
}

// A branching include that would run for ever is stopped at the chart's
// time bound with a problem, and the abandoned render stops at its next
// template function call.
func TestHelmRenderTimeBounded(t *testing.T) {
	goroutines := runtime.NumGoroutine()
	tpl := `{{ define "a" }}{{ if lt . 60 }}{{ include "a" (add . 1) }}{{ include "a" (add . 1) }}{{ end }}{{ end }}{{ include "a" 0 }}` + "\n"
	start := time.Now()
	p, _ := boundChart(t, tpl, helm.Options{Timeout: 200 * time.Millisecond})
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("returned after %s", took)
	}
	if p.Rule != "helm-template" || !strings.Contains(p.Message, "longer than 200ms") || filepath.Base(p.File) != "Chart.yaml" {
		t.Errorf("problem %v", p)
	}
	for i := 0; runtime.NumGoroutine() > goroutines; i++ {
		if i == 100 {
			t.Fatalf("%d goroutines, %d before: the abandoned render still runs", runtime.NumGoroutine(), goroutines)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Charts that stay inside the bounds render as helm renders them: the
// bounded functions keep their results.
func TestHelmBoundedFunctionsKeepResults(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"Chart.yaml": "apiVersion: v2\nname: ok\nversion: 0.1.0\n",
		"templates/cm.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ printf "%s-%s" "ok" "cm" | trunc 63 }}
data:
  a: {{ repeat 3 "ab" | quote }}
  b: {{ until 3 | join "," | quote }}
  c: {{ print "x" 1 | upper | quote }}
  d: {{ seq 3 | quote }}
  e: {{ list "b" "a" | sortAlpha | toJson | quote }}
  f: {{ dict "k" "v" | toYaml | nindent 4 | trim | quote }}
  g: {{ replace "a" "b" "aaa" | quote }}
`,
	})
	res := loadChartT(t, dir, helm.Options{})
	if len(res.Problems) != 0 || len(res.Objects) != 1 {
		t.Fatalf("%v %v", objKeys(res.Objects), res.Problems)
	}
	data, _ := res.Objects[0].Content["data"].(map[string]any)
	want := map[string]any{"a": "ababab", "b": "0,1,2", "c": "X1", "d": "1 2 3", "e": `["a","b"]`, "f": "k: v", "g": "bbb"}
	for k, v := range want {
		if data[k] != v {
			t.Errorf("%s = %q, want %q", k, data[k], v)
		}
	}
	if res.Objects[0].Name != "ok-cm" {
		t.Errorf("name %q", res.Objects[0].Name)
	}
}

// Output a template writes with its own text passes no function: a
// branching include over nested values is abandoned once the heap grows
// past the bound (kept small here, and the bomb finite, so that the
// abandoned render ends by itself).
func TestHelmRenderHeapBounded(t *testing.T) {
	dir := t.TempDir()
	nested := strings.Repeat("[", 21) + strings.Repeat("]", 21)
	filetree.Write(t, dir, map[string]string{
		"Chart.yaml":       "apiVersion: v2\nname: bomb\nversion: 0.1.0\n",
		"values.yaml":      "a: " + nested + "\n",
		"templates/t.yaml": `{{ define "a" }}{{ range . }}xxxxxxxxxxxxxxxx{{ include "a" . }}{{ include "a" . }}{{ end }}{{ end }}{{ include "a" .Values.a }}` + "\n",
	})
	ch, err := helm.LoadChart(dir, dir)
	if err != nil {
		t.Fatal(err)
	}
	top, err := util.ToRenderValuesWithSchemaValidation(ch, ch.Values, common.ReleaseOptions{Name: "r", Namespace: "default"}, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC() // the garbage earlier tests left is not the base
	goroutines := runtime.NumGoroutine()
	out, p, err := helm.RenderBounded(dir, ch, top, time.Minute, helm.MaxHelmOutputBytes, 4<<20, nil, time.Time{})
	if err != nil || out != nil || p == nil || !strings.Contains(p.Message, "rendering grew memory by more than 4 MiB") {
		t.Fatalf("got %d templates, %v, %v", len(out), p, err)
	}
	// the abandoned render ends by itself; later tests measure allocations
	for deadline := time.Now().Add(time.Minute); runtime.NumGoroutine() > goroutines && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
}

// The bounded functions never bring back what helm removes or replaces:
// env and expandenv stay undefined, getHostByName resolves nothing.
func TestHelmBoundedFunctionsKeepHelmsOwn(t *testing.T) {
	t.Setenv("KUBEPLAN_CANARY", "canary-7f3a")
	res := loadChartT(t, chartWith(t, `{{ getHostByName "localhost" | quote }}`), helm.Options{})
	if len(res.Problems) != 0 || len(res.Objects) != 1 {
		t.Fatalf("%v %v", objKeys(res.Objects), res.Problems)
	}
	if data, _ := res.Objects[0].Content["data"].(map[string]any); data["v"] != "" {
		t.Errorf("getHostByName resolved localhost to %q", data["v"])
	}
	for _, fn := range []string{"env", "expandenv"} {
		res := loadChartT(t, chartWith(t, `{{ `+fn+` "KUBEPLAN_CANARY" | quote }}`), helm.Options{})
		if len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Message, `function "`+fn+`" not defined`) {
			t.Errorf("%s: %v %v", fn, objKeys(res.Objects), res.Problems)
		}
	}
}

// chartWith is a chart whose ConfigMap's data.v is value.
func chartWith(t *testing.T, value string) string {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"Chart.yaml":        "apiVersion: v2\nname: fns\nversion: 0.1.0\n",
		"templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fns\ndata:\n  v: " + value + "\n",
	})
	return dir
}
