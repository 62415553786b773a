package helm_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/testing/filetree"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/helm"
)

// renderT renders the chart at path with h, failing on an error or an
// error problem; it returns the objects by "Kind/name" and the problems,
// and how many renders it took.
func renderT(t *testing.T, path string, h helm.Options) (map[string]*manifest.Object, []*manifest.Problem, int64) {
	t.Helper()
	before := helm.HelmRenders.Load()
	objs, probs, err := helm.Render(context.Background(), path, "", h)
	renders := helm.HelmRenders.Load() - before
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range probs {
		if !p.Warning && !p.Info {
			t.Fatalf("problem: %v", p)
		}
	}
	out := map[string]*manifest.Object{}
	for _, o := range objs {
		out[o.Kind+"/"+o.Name] = o
	}
	return out, probs, renders
}

// keptOf is an object's Kept as "reason: a.b.c" lines, sorted.
func keptOf(o *manifest.Object) []string {
	var out []string
	for _, k := range o.Kept {
		r := "generated"
		if k.Reason == manifest.KeptLookedUp {
			r = "looked-up"
		}
		out = append(out, r+": "+strings.Join(k.Path, "."))
	}
	sort.Strings(out)
	return out
}

func wantKept(t *testing.T, objs map[string]*manifest.Object, want map[string][]string) {
	t.Helper()
	for key, o := range objs {
		got := keptOf(o)
		w := want[key]
		sort.Strings(w)
		if !slices.Equal(got, w) {
			t.Errorf("%s: kept %q, want %q", key, got, w)
		}
	}
	for key := range want {
		if objs[key] == nil {
			t.Errorf("no object %s", key)
		}
	}
}

// leaked names the forms of the real values found anywhere in the objects
// (their content and their rendered text).
func leaked(objs map[string]*manifest.Object, values ...string) []string {
	var found []string
	for key, o := range objs {
		js, _ := json.Marshal(o.Content)
		text := string(js)
		if o.Lazy != nil {
			text += string(o.Lazy.Data)
		}
		for _, v := range values {
			forms := map[string]string{"raw": v, "base64": b64(v), "upper": strings.ToUpper(v),
				"base64 upper": strings.ToUpper(b64(v)), "substring": v[:4]}
			for form, s := range forms {
				if strings.Contains(text, s) {
					found = append(found, fmt.Sprintf("%s: %s (%s)", key, form, v))
				}
			}
		}
	}
	sort.Strings(found)
	return found
}

// Lint renders the database chart without lookup, as helm template: the
// passwords are generated (kept), and so is the checksum of the Secret the
// Deployment carries; it renders twice, and helm-generated points at the
// randAlphaNum of the helper.
func TestHelmKeptDatabaseLint(t *testing.T) {
	objs, probs, renders := renderT(t, dbChart, helm.Options{})
	wantKept(t, objs, map[string][]string{
		"Secret/release-name-database": {"generated: data.password", "generated: data.postgres-password"},
		"Deployment/release-name-database": {
			"generated: spec.template.metadata.annotations.checksum/secret"},
		"Service/release-name-database": nil,
	})
	if renders != 2 {
		t.Errorf("%d renders, want 2", renders)
	}
	var gen []string
	for _, p := range probs {
		if p.Rule == helm.RuleGenerated {
			gen = append(gen, fmt.Sprintf("%s:%d:%d info=%v %s", p.File, p.Line, p.Col, p.Info, p.Message))
		}
	}
	want := []string{dbChart + "/templates/_helpers.tpl:17:5 info=true randAlphaNum makes a new value at every render: when the object exists, kubeplan keeps the live value of the fields it makes (helm upgrade would change them)"}
	if !slices.Equal(gen, want) {
		t.Errorf("helm-generated findings:\n%q\nwant\n%q", gen, want)
	}
}

// A password set in values is a literal from the repository: not kept.
func TestHelmKeptDatabaseValuesLiteral(t *testing.T) {
	objs, _, _ := renderT(t, dbChart, helm.Options{ValuesFiles: []string{dbChart + "/values-literal.yaml"}})
	wantKept(t, objs, map[string][]string{
		"Secret/release-name-database":     {"generated: data.postgres-password"},
		"Deployment/release-name-database": {"generated: spec.template.metadata.annotations.checksum/secret"},
		"Service/release-name-database":    nil,
	})
	if got, _ := objs["Secret/release-name-database"].Get("data", "password"); got != b64("hunter2-from-git") {
		t.Errorf("password %v", got)
	}
}

// Plan of the database chart over a cluster where it is installed: the
// templates see placeholders, never the Secret's data; the passwords and
// the checksum are kept as looked up; no generating function ran, so two
// renders (placeholders 1 and 2).
func TestHelmKeptDatabasePlan(t *testing.T) {
	lk := dbLookup()
	objs, probs, renders := renderT(t, dbChart, helm.Options{Lookup: lk, WithholdSecretData: true})
	wantKept(t, objs, map[string][]string{
		"Secret/release-name-database": {"looked-up: data.password", "looked-up: data.postgres-password"},
		"Deployment/release-name-database": {
			"looked-up: spec.template.metadata.annotations.checksum/secret"},
		"Service/release-name-database": nil,
	})
	if renders != 2 {
		t.Errorf("%d renders, want 2", renders)
	}
	if l := leaked(objs, realPassword, realPostgres); len(l) > 0 {
		t.Errorf("plan shows the Secret's data: %v", l)
	}
	if n := lk.calls.Load(); n != 1 {
		t.Errorf("the cluster was read %d times, want once (cached across calls and renders)", n)
	}
	for _, p := range probs {
		if p.Rule == "helm-lookup" {
			t.Errorf("helm-lookup warning where lookup reads the cluster: %v", p)
		}
	}
}

// Apply of the same: the objects carry the real values (the passwords
// kept as the cluster has them), marked looked up so apply's output can
// hide them; three renders (the real data, placeholders 1 and 2).
func TestHelmKeptDatabaseApply(t *testing.T) {
	objs, _, renders := renderT(t, dbChart, helm.Options{Lookup: dbLookup()})
	wantKept(t, objs, map[string][]string{
		"Secret/release-name-database": {"looked-up: data.password", "looked-up: data.postgres-password"},
		"Deployment/release-name-database": {
			"looked-up: spec.template.metadata.annotations.checksum/secret"},
		"Service/release-name-database": nil,
	})
	if renders != 3 {
		t.Errorf("%d renders, want 3", renders)
	}
	s := objs["Secret/release-name-database"]
	if pw, _ := s.Get("data", "password"); pw != b64(realPassword) {
		t.Errorf("apply writes password %v, want the cluster's", pw)
	}
	if pw, _ := s.Get("data", "postgres-password"); pw != b64(realPostgres) {
		t.Errorf("apply writes postgres-password %v, want the cluster's", pw)
	}
}

// The five leaks of issue 26 (and a list lookup, and kubectl's
// last-applied annotation): in plan, no object holds the Secret's value in
// any form, and each field made from it is kept as looked up; in apply the
// same fields are marked, with the real values in them.
func TestHelmKeptLeakChart(t *testing.T) {
	const leak = "../../testdata/charts/leak"
	want := map[string][]string{
		"ConfigMap/leak-list": {"looked-up: data.db", "looked-up: data.other", "looked-up: data.last-applied"},
	}
	for _, n := range []string{"as-is", "b64dec", "upper", "substr", "json"} {
		want["ConfigMap/leak-"+n] = []string{"looked-up: data.value"}
	}
	objs, _, _ := renderT(t, leak, helm.Options{Lookup: leakLookup(), WithholdSecretData: true})
	wantKept(t, objs, want)
	if l := leaked(objs, realPassword, realOther); len(l) > 0 {
		t.Errorf("plan shows the Secrets' data: %v", l)
	}

	objs, _, _ = renderT(t, leak, helm.Options{Lookup: leakLookup()})
	wantKept(t, objs, want)
	real := map[string]string{
		"as-is":  b64(realPassword),
		"b64dec": realPassword,
		"upper":  strings.ToUpper(realPassword),
		"substr": realPassword[:4],
		"json":   `{"password":"` + realPassword + `"}`,
	}
	for n, v := range real {
		if got, _ := objs["ConfigMap/leak-"+n].Get("data", "value"); got != v {
			t.Errorf("apply: leak-%s value %q, want the real %q", n, got, v)
		}
	}
	if got, _ := objs["ConfigMap/leak-list"].Get("data", "other"); got != realOther {
		t.Errorf("apply: leak-list other %q", got)
	}
}

// Generated and looked-up fields in one object: the generated one is
// generated (the renders with placeholders replay the generated values),
// the looked-up one looked up, the literal not kept; in plan and apply.
func TestHelmKeptMixed(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"Chart.yaml": "apiVersion: v2\nname: mixed\nversion: 0.1.0\n",
		"templates/cm.yaml": `{{- $s := lookup "v1" "Secret" .Release.Namespace "db" }}
apiVersion: v1
kind: ConfigMap
metadata:
  name: mixed
data:
  gen: {{ randAlphaNum 8 | quote }}
  looked: {{ $s.data.password | quote }}
  both: {{ printf "%s-%s" (randAlpha 4) ($s.data.password | b64dec) | quote }}
  literal: "from git"
`,
	})
	for _, withhold := range []bool{true, false} {
		objs, _, renders := renderT(t, dir, helm.Options{Lookup: leakLookup(), WithholdSecretData: withhold})
		wantKept(t, objs, map[string][]string{"ConfigMap/mixed": {
			"generated: data.gen", "looked-up: data.looked", "looked-up: data.both"}})
		if want := map[bool]int64{true: 3, false: 4}[withhold]; renders != want {
			t.Errorf("withhold %v: %d renders, want %d", withhold, renders, want)
		}
	}
}

// Every generating function marks what it makes, even one character of
// randNumeric (the second render draws again until it differs); now and
// the date functions that read the clock differ by more than a year.
func TestHelmKeptGeneratingFunctions(t *testing.T) {
	fns := map[string]string{
		"alphanum":   `randAlphaNum 12`,
		"alpha":      `randAlpha 1`,
		"numeric":    `randNumeric 1`,
		"ascii":      `randAscii 6`,
		"bytes":      `randBytes 3`,
		"int":        `randInt 0 2 | toString`,
		"uuid":       `uuidv4`,
		"key":        `genPrivateKey "ecdsa"`,
		"selfsigned": `(genSelfSignedCert "x" nil nil 3).Cert`,
		"ca":         `(genCA "ca" 3).Cert`,
		"year":       `now | date "2006"`,
		"weekday":    `now | date "Mon"`,
		"epoch":      `now | unixEpoch | toString`,
		"dateclock":  `date "2006-01-02" ""`,
		"htmldate":   `htmlDate "x"`,
		"bcrypt":     `bcrypt "pw"`,
	}
	var b strings.Builder
	var want []string
	for k, fn := range fns {
		fmt.Fprintf(&b, "  %s: {{ %s | quote }}\n", k, fn)
		want = append(want, "generated: data."+k)
	}
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"Chart.yaml":        "apiVersion: v2\nname: gen\nversion: 0.1.0\n",
		"templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: gen\ndata:\n  fixed: {{ date \"2006\" 0 | quote }}\n" + b.String(),
	})
	for range 5 {
		objs, _, _ := renderT(t, dir, helm.Options{})
		wantKept(t, objs, map[string][]string{"ConfigMap/gen": want})
	}
}

// The clock of the second render is the first's plus genVaryOffset,
// exactly.
func TestHelmVaryClock(t *testing.T) {
	tape := new([]helm.GenCall)
	live := helm.NewGenSource(helm.GenLive, tape)
	t1 := live.Now()
	vary := helm.NewGenSource(helm.GenVary, tape)
	if t2 := vary.Now(); t2.Sub(t1) != helm.GenVaryOffset {
		t.Errorf("vary now %v, live %v", t2, t1)
	}
	replay := helm.NewGenSource(helm.GenReplay, tape)
	if t3 := replay.Now(); !t3.Equal(t1) {
		t.Errorf("replay now %v, live %v", t3, t1)
	}
}

// The webhook chart signs its serving certificate with its own CA: the
// certificates, the key, the caBundle, the uuid annotation and the pod
// annotations made from randAlphaNum and now are generated; helm-generated
// points at each call.
func TestHelmKeptWebhookCerts(t *testing.T) {
	const wh = "../../testdata/charts/webhook"
	objs, probs, _ := renderT(t, wh, helm.Options{})
	wantKept(t, objs, map[string][]string{
		"Secret/release-name-webhook-tls":                     {"generated: data.ca.crt", "generated: data.tls.crt", "generated: data.tls.key"},
		"ValidatingWebhookConfiguration/release-name-webhook": {"generated: webhooks.0.clientConfig.caBundle"},
		"Deployment/release-name-webhook": {
			"generated: metadata.annotations.example.com/install-id",
			"generated: spec.template.metadata.annotations.deployed-at",
			"generated: spec.template.metadata.annotations.rollme"},
		"Service/release-name-webhook": nil,
	})
	var got []string
	for _, p := range probs {
		if p.Rule == helm.RuleGenerated && p.Info {
			got = append(got, fmt.Sprintf("%s:%d:%d %s", strings.TrimPrefix(p.File, wh+"/"), p.Line, p.Col, strings.Fields(p.Message)[0]))
		}
	}
	want := []string{
		"templates/deployment.yaml:17:20 randAlphaNum",
		"templates/deployment.yaml:18:25 now",
		"templates/deployment.yaml:6:32 uuidv4",
		"templates/webhook.yaml:1:12 genCA",
		"templates/webhook.yaml:3:14 genSignedCert",
	}
	sort.Strings(got)
	if !slices.Equal(got, want) {
		t.Errorf("helm-generated:\n%q\nwant\n%q", got, want)
	}
}

// A chart that generates nothing and reads no Secret renders once.
func TestHelmRendersOnce(t *testing.T) {
	_, _, renders := renderT(t, "../../testdata/charts/bench", helm.Options{})
	if renders != 1 {
		t.Errorf("bench chart: %d renders, want 1", renders)
	}
	// a lookup that finds no Secret: once too
	_, _, renders = renderT(t, dbChart, helm.Options{Lookup: &fakeLookup{}, WithholdSecretData: true})
	if renders != 2 { // randAlphaNum: twice
		t.Errorf("database chart on an empty cluster: %d renders, want 2", renders)
	}
}

// A generating call in a subchart's helper is found too, by the render
// and by helm-generated.
func TestHelmKeptSubchart(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"Chart.yaml":                          "apiVersion: v2\nname: top\nversion: 0.1.0\ndependencies:\n  - name: sub\n    version: 0.1.0\n",
		"charts/sub/Chart.yaml":               "apiVersion: v2\nname: sub\nversion: 0.1.0\n",
		"charts/sub/templates/_helpers.tpl":   "{{- define \"sub.token\" -}}\n{{ uuidv4 }}\n{{- end -}}\n",
		"charts/sub/templates/configmap.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: sub\ndata:\n  token: {{ include \"sub.token\" . | quote }}\n",
	})
	objs, probs, _ := renderT(t, dir, helm.Options{})
	wantKept(t, objs, map[string][]string{"ConfigMap/sub": {"generated: data.token"}})
	found := false
	for _, p := range probs {
		if p.Rule == helm.RuleGenerated && p.File == dir+"/charts/sub/templates/_helpers.tpl" && p.Pos == (manifest.Pos{Line: 2, Col: 4}) {
			found = true
		}
	}
	if !found {
		t.Errorf("no helm-generated at the subchart's helper: %v", probs)
	}
}

// A lookup that fails is a problem at the template's line, naming what
// it looked up; one that hangs is stopped by the chart's time bound and
// sees its context end.
func TestHelmLookupErrorsAndBound(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"Chart.yaml": "apiVersion: v2\nname: lk\nversion: 0.1.0\n",
		"templates/cm.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: lk
data:
  v: {{ (lookup "v1" "ConfigMap" "default" "x").data | toJson | quote }}
`,
	})
	lk := &fakeLookup{err: errors.New("configmaps \"x\" is forbidden")}
	objs, probs, err := helm.Render(context.Background(), dir, "", helm.Options{Lookup: lk})
	if err != nil || len(objs) != 0 || len(probs) != 1 {
		t.Fatalf("%v %v %v", objs, probs, err)
	}
	p := probs[0]
	if p.Rule != "helm-template" || p.File != dir+"/templates/cm.yaml" || p.Pos != (manifest.Pos{Line: 6, Col: 10}) ||
		!strings.Contains(p.Message, `lookup v1 ConfigMap default/x: configmaps "x" is forbidden`) {
		t.Errorf("problem %+v", p)
	}

	lk = &fakeLookup{block: true}
	start := time.Now()
	objs, probs, err = helm.Render(context.Background(), dir, "", helm.Options{Lookup: lk, Timeout: 300 * time.Millisecond})
	if err != nil || len(objs) != 0 || len(probs) != 1 {
		t.Fatalf("%v %v %v", objs, probs, err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
	for deadline := time.Now().Add(5 * time.Second); !lk.sawDone.Load() && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if !lk.sawDone.Load() {
		t.Error("the blocked lookup never saw its context end")
	}
	// the time bound and the lookup's context end together: either says so
	if p := probs[0]; !strings.Contains(p.Message, "context deadline exceeded") && !strings.Contains(p.Message, "time bound") {
		t.Errorf("problem %+v", p)
	}
}

// The placeholders differ at every position, in either case, as text and
// as base64, so any field made from them by position differs.
func TestWithheldPlaceholdersDiffer(t *testing.T) {
	a, b := helm.WithheldText(1), helm.WithheldText(2)
	for _, pair := range [][2]string{
		{a, b},
		{base64.StdEncoding.EncodeToString([]byte(a)), base64.StdEncoding.EncodeToString([]byte(b))},
	} {
		x, y := strings.ToLower(pair[0]), strings.ToLower(pair[1])
		if len(x) != len(y) {
			t.Fatalf("lengths %d %d", len(x), len(y))
		}
		for i := range x {
			if x[i] == y[i] {
				t.Errorf("%q and %q agree at %d", pair[0], pair[1], i)
			}
		}
	}
}

// Values a template changes with set do not carry from one render to the
// next: a password set into .Values from randAlphaNum is generated, and
// one set from a looked-up Secret is looked up (in apply, where the first
// render had the real data).
func TestHelmKeptSetValues(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"Chart.yaml":  "apiVersion: v2\nname: setv\nversion: 0.1.0\n",
		"values.yaml": "password: \"\"\n",
		"templates/cm.yaml": `{{- $s := lookup "v1" "Secret" .Release.Namespace "db" }}
{{- if not .Values.password }}{{ $_ := set .Values "password" (randAlphaNum 10) }}{{ end }}
{{- if and $s (not .Values.copied) }}{{ $_ := set .Values "copied" ($s.data.password | b64dec) }}{{ end }}
apiVersion: v1
kind: ConfigMap
metadata:
  name: setv
data:
  password: {{ .Values.password | quote }}
  copied: {{ .Values.copied | default "" | quote }}
`,
	})
	objs, _, _ := renderT(t, dir, helm.Options{})
	wantKept(t, objs, map[string][]string{"ConfigMap/setv": {"generated: data.password"}})
	objs, _, _ = renderT(t, dir, helm.Options{Lookup: leakLookup()})
	wantKept(t, objs, map[string][]string{"ConfigMap/setv": {"generated: data.password", "looked-up: data.copied"}})
	if got, _ := objs["ConfigMap/setv"].Get("data", "copied"); got != realPassword {
		t.Errorf("apply: copied %v", got)
	}
}

// In apply the templates get the real data, so what fails says nothing
// of it: a fail quoting the value, a fail only the real value reaches, a
// rendered YAML the real value breaks. The same with a name made from the
// data, refused in plan and apply.
func TestHelmLookedUpErrorsWithheld(t *testing.T) {
	const real = "s3cr3t: [Canary"
	cases := map[string]string{
		"fail": `{{- $s := lookup "v1" "Secret" .Release.Namespace "db" }}
{{- fail ($s.data.password | b64dec) }}
`,
		"fail-real-only": `{{- $s := lookup "v1" "Secret" .Release.Namespace "db" }}
{{- if hasPrefix "s3cr" ($s.data.password | b64dec) }}{{ fail ($s.data.password | b64dec) }}{{ end }}
apiVersion: v1
kind: ConfigMap
metadata:
  name: ok
`,
		"yaml": `{{- $s := lookup "v1" "Secret" .Release.Namespace "db" }}
apiVersion: v1
kind: ConfigMap
metadata:
  name: broken
data:
  v: {{ $s.data.password | b64dec }}
`,
		"name": `{{- $s := lookup "v1" "Secret" .Release.Namespace "db" }}
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ $s.data.password | b64dec | lower | trunc 4 }}
`,
	}
	lk := &fakeLookup{objs: []map[string]any{secretObj("db", map[string]string{"password": real})}}
	for name, tpl := range cases {
		dir := t.TempDir()
		filetree.Write(t, dir, map[string]string{
			"Chart.yaml":        "apiVersion: v2\nname: errs\nversion: 0.1.0\n",
			"templates/cm.yaml": tpl,
		})
		for _, withhold := range []bool{true, false} {
			objs, probs, err := helm.Render(context.Background(), dir, "", helm.Options{Lookup: lk, WithholdSecretData: withhold})
			if err != nil {
				t.Fatal(err)
			}
			if (name == "fail-real-only" || name == "yaml") && withhold {
				if len(probs) != 0 || len(objs) != 1 {
					t.Errorf("%s plan: %v %v", name, objs, probs)
				}
				continue
			}
			if len(objs) != 0 || !helm.HasErrorProblem(probs) {
				t.Errorf("%s (withhold %v): objects %d, problems %v", name, withhold, len(objs), probs)
			}
			for _, p := range probs {
				for _, form := range []string{real, "s3cr", strings.ToLower(real[:4]), b64(real), strings.ToUpper(real)} {
					if strings.Contains(p.Message, form) {
						t.Errorf("%s (withhold %v): problem shows %q: %v", name, withhold, form, p)
					}
				}
				if p.File != dir+"/templates/cm.yaml" {
					t.Errorf("%s: problem at %s", name, p.File)
				}
			}
		}
	}
}

// Whatever Go types a Lookup uses (data as map[string]string, items as
// []map[string]any, bytes), the Secret's data is withheld.
func TestHelmLookupOddTypesWithheld(t *testing.T) {
	lk := lookupFunc(func(apiVersion, kind, namespace, name string) map[string]any {
		secret := map[string]any{"apiVersion": "v1", "kind": "Secret",
			"metadata": map[string]any{"name": "db"},
			"data":     map[string]string{"password": b64(realPassword)}}
		if name == "" {
			return map[string]any{"items": []map[string]any{
				{"metadata": map[string]any{"name": "db"}, "data": map[string][]byte{"password": []byte(realOther)}}}}
		}
		return secret
	})
	dir := t.TempDir()
	filetree.Write(t, dir, map[string]string{
		"Chart.yaml": "apiVersion: v2\nname: odd\nversion: 0.1.0\n",
		"templates/cm.yaml": `{{- $s := lookup "v1" "Secret" .Release.Namespace "db" }}
{{- $all := lookup "v1" "Secret" .Release.Namespace "" }}
apiVersion: v1
kind: ConfigMap
metadata:
  name: odd
data:
  one: {{ $s.data.password | b64dec | quote }}
  list: {{ (index $all.items 0).data.password | b64dec | quote }}
`,
	})
	objs, _, _ := renderT(t, dir, helm.Options{Lookup: lk, WithholdSecretData: true})
	wantKept(t, objs, map[string][]string{"ConfigMap/odd": {"looked-up: data.one", "looked-up: data.list"}})
	if l := leaked(objs, realPassword, realOther); len(l) > 0 {
		t.Errorf("shown: %v", l)
	}
}

// lookupFunc is a Lookup from a function.
type lookupFunc func(apiVersion, kind, namespace, name string) map[string]any

func (f lookupFunc) Lookup(_ context.Context, apiVersion, kind, namespace, name string) (map[string]any, error) {
	return f(apiVersion, kind, namespace, name), nil
}
