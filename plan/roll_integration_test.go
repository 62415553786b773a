package plan_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/rollhash"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/render"
)

// rollDeployment is a Deployment whose container reads env (YAML list
// items, indented for the container).
func rollDeployment(name, env string) string {
	return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ` + name + `
spec:
  replicas: 1
  selector:
    matchLabels: {app: ` + name + `}
  template:
    metadata:
      labels: {app: ` + name + `}
    spec:
      containers:
      - name: app
        image: nginx:1.30
` + env
}

// rollFiles: web reads the ConfigMap settings and the Secret db, api the
// ConfigMap other, plain nothing.
func rollFiles(region, password string) map[string]string {
	return map[string]string{
		"settings.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  region: " + region + "\n",
		"other.yaml":    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\ndata:\n  x: \"1\"\n",
		"db.yaml":       "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\nstringData:\n  password: " + password + "\n",
		"web.yaml": rollDeployment("web", `        envFrom: [{configMapRef: {name: settings}}]
        env:
        - name: PASSWORD
          valueFrom: {secretKeyRef: {name: db, key: password}}
`),
		"api.yaml":   rollDeployment("api", "        envFrom: [{configMapRef: {name: other}}]\n"),
		"plain.yaml": rollDeployment("plain", ""),
	}
}

// TestIntegrationRollOnConfigChange proves roll on config change against
// the testcluster: a changed ConfigMap or Secret rolls exactly the
// Deployments that read it (their generation moves, the others' does
// not) and the plan says why; a no-op plan makes the same requests as
// without the option; the digest of a Secret is the HMAC keyed by the
// key on the Secret, not a plain SHA-256 of its value, and the key never
// shows; a saved plan applies the key it was made with.
func TestIntegrationRollOnConfigChange(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns, bare := c.Namespace(t), c.Namespace(t)
	kc, kcBare := narrow(t, c, ns), narrow(t, c, bare)
	ctx := context.Background()
	as := applyset.Parent{Kind: "ConfigMap", Name: "roll-set", Namespace: ns}
	asBare := applyset.Parent{Kind: "ConfigMap", Name: "roll-set", Namespace: bare}
	on := plan.Options{Namespace: ns, ApplySet: &as, RollOnConfigChange: true}
	off := plan.Options{Namespace: bare, ApplySet: &asBare}

	dir := writeSet(t, rollFiles("eu", "hunter2"))
	planApply := func(kc string, opts plan.Options, dir string) *plan.Plan {
		t.Helper()
		cl := client(t, kc, opts.Namespace)
		p, err := plan.Make(ctx, cl, load(t, dir), opts)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := apply.Reconcile(ctx, cl, p, apply.Options{ApplySet: opts.ApplySet, Version: "test"}); err != nil {
			t.Fatal(err)
		}
		return p
	}
	planApply(kc, on, dir)
	planApply(kcBare, off, dir)

	// The digests: web's is over settings and db's HMAC, keyed by the key
	// applied on db; api's over other; plain has none.
	get := func(kind, name, path string) string {
		return c.Kubectl(t, "-n", ns, "get", kind, name, "-o", "jsonpath={"+path+"}")
	}
	digest := func(name string) string {
		return get("deployment", name, `.spec.template.metadata.annotations.kubeplan\.dev/config-hash`)
	}
	key := get("secret", "db", `.metadata.annotations.kubeplan\.dev/roll-key`)
	if len(key) != 43 {
		t.Fatalf("the Secret's roll key %q: want 256 random bits", key)
	}
	settings := rollhash.ConfigMap(map[string]any{"data": map[string]any{"region": "eu"}})
	hmac := rollhash.Secret(key, map[string]any{"stringData": map[string]any{"password": "hunter2"}})
	if got, want := digest("web"), rollhash.Template([]rollhash.Ref{{Name: "configmap/settings", Digest: settings}, {Name: "secret/db", Digest: hmac}}); got != want {
		t.Errorf("web's digest %q, want %q (the HMAC keyed by db's key)", got, want)
	}
	plainSum := sha256.Sum256([]byte("hunter2"))
	for _, guess := range []string{
		hex.EncodeToString(plainSum[:]),
		rollhash.Template([]rollhash.Ref{{Name: "configmap/settings", Digest: settings}, {Name: "secret/db", Digest: hex.EncodeToString(plainSum[:])}}),
		rollhash.Template([]rollhash.Ref{{Name: "configmap/settings", Digest: settings}, {Name: "secret/db", Digest: rollhash.Secret("", map[string]any{"stringData": map[string]any{"password": "hunter2"}})}}),
	} {
		if digest("web") == guess {
			t.Errorf("web's digest can be computed from the password alone: %s", guess)
		}
	}
	if digest("api") == "" || digest("plain") != "" {
		t.Errorf("digests api %q (want one), plain %q (want none)", digest("api"), digest("plain"))
	}

	// A no-op plan: no change, and request for request what the same set
	// costs without the option.
	noop := func(kc string, opts plan.Options) *kube.Client {
		t.Helper()
		cl := client(t, kc, opts.Namespace)
		p, err := plan.Make(ctx, cl, load(t, dir), opts)
		if err != nil {
			t.Fatal(err)
		}
		if p.HasChanges() {
			t.Fatalf("no-op plan in %s: %s\n%+v", opts.Namespace, summary(p), p.Changes)
		}
		return cl
	}
	with, without := noop(kc, on), noop(kcBare, off)
	for _, m := range []string{"GET", "POST (review)", "PATCH (dry-run)", "POST", "PATCH"} {
		if a, b := with.Requests.Count(m), without.Requests.Count(m); a != b {
			t.Errorf("a no-op plan makes %d %s requests with the option, %d without", a, m, b)
		}
	}
	if a, b := with.Requests.Total(), without.Requests.Total(); a != b {
		t.Errorf("a no-op plan makes %d requests with the option, %d without", a, b)
	}

	// settings changes: web alone rolls, for settings; api and plain stay.
	generations := func() map[string]string {
		out := map[string]string{}
		for _, d := range []string{"web", "api", "plain"} {
			out[d] = get("deployment", d, ".metadata.generation")
		}
		return out
	}
	before := generations()
	dir = writeSet(t, rollFiles("us", "hunter2"))
	p := planApply(kc, on, dir)
	if w := find(p, "deployment.apps/web"); w == nil || w.Action != plan.Update || strings.Join(w.RollsFor, ",") != "configmap/settings" {
		t.Errorf("web: %+v, want an update rolling for configmap/settings", w)
	}
	for _, ref := range []string{"deployment.apps/api", "deployment.apps/plain", "secret/db"} {
		if ch := find(p, ref); ch == nil || ch.Action != plan.Unchanged {
			t.Errorf("%s: %+v, want unchanged", ref, ch)
		}
	}
	var text bytes.Buffer
	if err := render.Plan(&text, "text", p, render.PlanOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "  deployment.apps/web will roll: configmap/settings changed\n") || strings.Count(text.String(), "will roll") != 1 {
		t.Errorf("the text plan does not say why web rolls, or says more:\n%s", text.String())
	}
	after := generations()
	if after["web"] == before["web"] || after["api"] != before["api"] || after["plain"] != before["plain"] {
		t.Errorf("generations %v then %v: want web's alone to move", before, after)
	}

	// The password changes: web rolls for db; the plan never shows the
	// key or the value, and the key stays.
	dir = writeSet(t, rollFiles("us", "hunter3"))
	cl := client(t, kc, ns)
	p, err := plan.Make(ctx, cl, load(t, dir), on)
	if err != nil {
		t.Fatal(err)
	}
	if w := find(p, "deployment.apps/web"); strings.Join(w.RollsFor, ",") != "secret/db" {
		t.Errorf("web rolls for %v, want secret/db", w.RollsFor)
	}
	if api := find(p, "deployment.apps/api"); api.Action != plan.Unchanged {
		t.Errorf("api: %s", api.Action)
	}
	for _, f := range []string{"text", "markdown", "json"} {
		var b bytes.Buffer
		if err := render.Plan(&b, f, p, render.PlanOptions{}); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), key) || strings.Contains(b.String(), "hunter") {
			t.Errorf("the %s plan shows the roll key or the password:\n%s", f, b.String())
		}
	}
	if _, err := apply.Reconcile(ctx, cl, p, apply.Options{ApplySet: &as, Version: "test"}); err != nil {
		t.Fatal(err)
	}
	if k := get("secret", "db", `.metadata.annotations.kubeplan\.dev/roll-key`); k != key {
		t.Errorf("the roll key changed with the value: %q then %q", key, k)
	}

	// A new Secret read by api, through a saved plan: the key the plan
	// made is the one applied, and the next plan is a no-op.
	files := rollFiles("us", "hunter3")
	files["token.yaml"] = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: token\ndata:\n  t: dG9rZW4=\n"
	files["api.yaml"] = rollDeployment("api", "        envFrom: [{configMapRef: {name: other}}, {secretRef: {name: token}}]\n")
	dir = writeSet(t, files)
	p, err = plan.Make(ctx, client(t, kc, ns), load(t, dir), on)
	if err != nil {
		t.Fatal(err)
	}
	saved := filepath.Join(t.TempDir(), "tfplan")
	if err := plan.Save(saved, p); err != nil {
		t.Fatal(err)
	}
	sp, err := plan.Load(saved)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := apply.Reconcile(ctx, client(t, kc, ns), sp, apply.Options{ApplySet: &as, Version: "test"}); err != nil {
		t.Fatal(err)
	}
	savedKey := rollhash.KeyOf(find(sp, "secret/token").Object)
	if k := get("secret", "token", `.metadata.annotations.kubeplan\.dev/roll-key`); k == "" || k != savedKey {
		t.Errorf("live key %q, the saved plan's %q", k, savedKey)
	}
	if got, want := digest("api"), rollhash.Get(find(sp, "deployment.apps/api").Object, rollhash.TemplateMeta("apps", "Deployment")); got != want {
		t.Errorf("api's live digest %q, the saved plan's %q", got, want)
	}
	if b, _ := os.ReadFile(saved); !bytes.Contains(b, []byte(savedKey)) {
		t.Error("the saved plan does not hold the key it applies")
	}
	if p, err = plan.Make(ctx, client(t, kc, ns), load(t, dir), on); err != nil || p.HasChanges() {
		t.Errorf("plan after the saved plan was applied: %v %v", err, p)
	}
}
