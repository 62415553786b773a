package plan_test

import (
	"bytes"
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/render"
)

const shopDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop
spec:
  selector:
    matchLabels: {app: shop}
  template:
    metadata:
      labels: {app: shop}
    spec:
      containers:
      - name: side
        image: busybox:1
      - name: shop
        image: shop:1
        ports:
        - containerPort: 80
          name: http
        - containerPort: 53
          protocol: UDP
          name: dns
        env:
        - name: MODE
          value: fast
        - name: LEVEL
          value: info
`

// What another tool applies over it: the image, the name of the TCP port 80
// and one env value, each in a list element found by its keys.
const shopBySet = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop
spec:
  selector:
    matchLabels: {app: shop}
  template:
    metadata:
      labels: {app: shop}
    spec:
      containers:
      - name: shop
        image: shop:2
        ports:
        - containerPort: 80
          protocol: TCP
          name: web
        env:
        - name: LEVEL
          value: debug
`

func TestIntegrationDriftInLists(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	ctx := context.Background()
	dir := writeSet(t, map[string]string{"deployment.yaml": shopDeployment})
	c.Kubectl(t, "-n", ns, "apply", "--server-side", "--field-manager=kubeplan", "-f", dir)
	other := writeSet(t, map[string]string{"deployment.yaml": shopBySet})
	c.Kubectl(t, "-n", ns, "apply", "--server-side", "--force-conflicts", "--field-manager=kubectl-set", "-f", other)

	p, err := plan.Make(ctx, client(t, c.AdminKubeconfig(), ns), load(t, dir), plan.Options{Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	ch := find(p, "deployment.apps/shop")
	if ch == nil || ch.Action != plan.Update {
		t.Fatalf("shop: %+v", ch)
	}
	var got []string
	for _, d := range ch.Drift {
		got = append(got, d.Field+" live="+d.Live+" git="+d.Want+" by="+d.Manager)
	}
	sort.Strings(got)
	const c0 = `spec.template.spec.containers[name="shop"]`
	want := []string{
		c0 + `.env[name="LEVEL"].value live=debug git=info by=kubectl-set`,
		c0 + `.image live=shop:2 git=shop:1 by=kubectl-set`,
		c0 + `.ports[containerPort=80,protocol="TCP"].name live=web git=http by=kubectl-set`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("drift:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Every format prints the values, not "(unset)".
	for format, lines := range map[string][]string{
		"text":     {c0 + `.image is shop:2, set by kubectl-set; git says shop:1`},
		"json":     {`"live": "web"`, `"want": "http"`, `"live": "debug"`, `"want": "info"`},
		"markdown": {"`shop:2`", "`shop:1`", "`debug`", "`info`"},
	} {
		var b bytes.Buffer
		if err := render.Plan(&b, format, p, render.PlanOptions{}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if strings.Contains(out, "(unset)") {
			t.Errorf("%s output has (unset):\n%s", format, out)
		}
		for _, l := range lines {
			if !strings.Contains(out, l) {
				t.Errorf("%s output lacks %q:\n%s", format, l, out)
			}
		}
	}
}
