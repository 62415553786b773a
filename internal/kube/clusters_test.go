package kube

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseClusters(t *testing.T) {
	abs, _ := filepath.Abs("kc/prod.yaml")
	m, err := ParseClusters("dev, prod=/etc/old.yaml", []string{"prod=kc/prod.yaml#admin", "stage=#staging-ctx,eu#eu-1", "plain="})
	if err != nil {
		t.Fatal(err)
	}
	want := Clusters{
		"dev":   {Context: "dev"},
		"prod":  {Kubeconfig: abs, Context: "admin"}, // the flag's entry wins
		"stage": {Context: "staging-ctx"},
		"eu":    {Context: "eu-1"},
		"plain": {Context: "plain"},
	}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("got %+v\nwant %+v", m, want)
	}
	if got := m.Names(); !reflect.DeepEqual(got, []string{"dev", "eu", "plain", "prod", "stage"}) {
		t.Errorf("names %v", got)
	}
	m, err = ParseClusters("", []string{"only=/k"})
	if err != nil || !reflect.DeepEqual(m, Clusters{"only": {Kubeconfig: "/k"}}) {
		t.Errorf("a file alone: %+v %v (want its current context: empty Context)", m, err)
	}
	for _, tc := range []struct {
		env   string
		flags []string
		want  string
	}{
		{"", []string{"=x"}, `--clusters "=x": a cluster name cannot be empty`},
		{"a b=x", nil, `$KUBEPLAN_CLUSTERS "a b=x": cluster name "a b"`},
		{"", []string{"a", "a=/x"}, `--clusters: cluster "a" is mapped twice`},
	} {
		if _, err := ParseClusters(tc.env, tc.flags); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q %q: err = %v, want %s", tc.env, tc.flags, err, tc.want)
		}
	}
}

// A name the map does not hold is refused with where it is set and what
// to pass; one it holds gets its kubeconfig and context, and never the
// command line's cluster-specific flags.
func TestClustersFlags(t *testing.T) {
	base := Flags()
	kc, ctx, server := "/runner/kubeconfig", "runner-ctx", "https://example.invalid"
	base.KubeConfig, base.Context, base.APIServer = &kc, &ctx, &server
	m := Clusters{"prod": {Kubeconfig: "/secrets/prod"}, "dev": {Context: "dev"}}
	_, err := m.Flags(base, "admin", "kubeplan.yaml:4:14")
	var nm *NotMappedError
	if !asNotMapped(err, &nm) || nm.Name != "admin" ||
		err.Error() != `kubeplan.yaml:4:14: cluster "admin" is not mapped on this runner (mapped: dev, prod); nothing was connected. `+
			`The runner chooses the credentials: pass --clusters admin=KUBECONFIG (or --clusters admin for the context of that name) or set KUBEPLAN_CLUSTERS` {
		t.Errorf("unmapped: %v", err)
	}
	f, err := m.Flags(base, "prod", "")
	if err != nil || deref(f.KubeConfig) != "/secrets/prod" || deref(f.Context) != "" || deref(f.APIServer) != "" {
		t.Errorf("prod: %v kubeconfig %q context %q server %q", err, deref(f.KubeConfig), deref(f.Context), deref(f.APIServer))
	}
	f, err = m.Flags(base, "dev", "")
	if err != nil || deref(f.KubeConfig) != kc || deref(f.Context) != "dev" || deref(f.APIServer) != "" {
		t.Errorf("dev: %v kubeconfig %q context %q server %q", err, deref(f.KubeConfig), deref(f.Context), deref(f.APIServer))
	}
}

func asNotMapped(err error, target **NotMappedError) bool {
	e, ok := err.(*NotMappedError)
	*target = e
	return ok
}
