package plan_test

import (
	"context"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/manifest/helm"
	"github.com/kubeplan/kubeplan/plan"
)

var _ helm.Lookup = (*plan.Lookup)(nil)

// TestIntegrationLookup reads through a chart's lookup as the narrow edit
// identity: a Secret by name, a list, a missing object, what the identity
// may not read (an error, never an empty answer), a kind the cluster does
// not serve; every answer once per run, and only reads.
func TestIntegrationLookup(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := narrow(t, c, ns)
	c.Kubectl(t, "-n", ns, "create", "secret", "generic", "db", "--from-literal=password=lookup-canary-7f3a")
	for _, n := range []string{"a", "b", "c"} {
		c.Kubectl(t, "-n", ns, "create", "configmap", "cm-"+n, "--from-literal=k="+n)
	}
	ctx := context.Background()
	cl := client(t, kc, ns)
	l := plan.NewLookup(cl)

	got, err := l.Lookup(ctx, "v1", "Secret", ns, "db")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := got["data"].(map[string]any)
	if got["kind"] != "Secret" || data["password"] != "bG9va3VwLWNhbmFyeS03ZjNh" {
		t.Fatalf("GET of the Secret: %v", got)
	}
	// A template may change what it is given: the next answer is whole.
	data["password"] = "changed"
	got, _ = l.Lookup(ctx, "v1", "Secret", ns, "db")
	if got["data"].(map[string]any)["password"] != "bG9va3VwLWNhbmFyeS03ZjNh" {
		t.Errorf("the cached answer was changed by its caller: %v", got["data"])
	}
	if n := l.Requests(); n != 1 {
		t.Errorf("two lookups of one Secret made %d requests, want 1", n)
	}

	list, err := l.Lookup(ctx, "v1", "ConfigMap", ns, "")
	if err != nil {
		t.Fatal(err)
	}
	items, _ := list["items"].([]any)
	names := map[string]bool{}
	for _, it := range items {
		names[it.(map[string]any)["metadata"].(map[string]any)["name"].(string)] = true
	}
	if !names["cm-a"] || !names["cm-b"] || !names["cm-c"] || list["kind"] != "ConfigMapList" {
		t.Errorf("LIST of ConfigMaps: kind %v, names %v", list["kind"], names)
	}

	if got, err := l.Lookup(ctx, "v1", "Secret", ns, "missing"); err != nil || len(got) != 0 {
		t.Errorf("a missing object: %v, %v; want an empty map, as helm", got, err)
	}

	// What the identity may not read is an error naming what to grant.
	_, err = l.Lookup(ctx, "v1", "Secret", "kube-system", "anything")
	if !plan.IsLookupForbidden(err) || !strings.Contains(err.Error(), "may not get secrets in namespace kube-system") {
		t.Errorf("a forbidden GET: %v", err)
	}
	_, err = l.Lookup(ctx, "v1", "Secret", "", "")
	if !plan.IsLookupForbidden(err) || !strings.Contains(err.Error(), "may not list secrets cluster-wide") {
		t.Errorf("a forbidden cluster-wide LIST: %v", err)
	}
	if _, err := l.Lookup(ctx, "example.com/v1", "Widget", ns, "w"); err == nil || !strings.Contains(err.Error(), "does not serve example.com/v1 Widget") {
		t.Errorf("an unknown kind: %v", err)
	}

	// Asked again, every answer (errors included) comes from the run's cache.
	before := cl.Requests.Total()
	for range 3 {
		_, _ = l.Lookup(ctx, "v1", "Secret", ns, "db")
		_, _ = l.Lookup(ctx, "v1", "ConfigMap", ns, "")
		_, _ = l.Lookup(ctx, "v1", "Secret", ns, "missing")
		_, _ = l.Lookup(ctx, "v1", "Secret", "kube-system", "anything")
	}
	if n := cl.Requests.Total() - before; n != 0 {
		t.Errorf("cached lookups made %d requests", n)
	}
	if n := l.Requests(); n != 5 {
		t.Errorf("the lookup made %d requests, want 5 (one per distinct read)", n)
	}
	if w := cl.Requests.Writes(); w != 0 {
		t.Errorf("lookups wrote %d times", w)
	}
	if n := cl.Requests.Count("GET"); n < 5 {
		t.Errorf("%d GETs (discovery included), want at least the 5 reads", n)
	}

	// A list longer than the bound is an error, never cut short silently.
	defer plan.SetLookupItems(2)()
	_, err = plan.NewLookup(cl).Lookup(ctx, "v1", "ConfigMap", ns, "")
	if err == nil || !strings.Contains(err.Error(), "more than 2 objects") {
		t.Errorf("a list over the bound: %v", err)
	}
}
