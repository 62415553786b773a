package workspace

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/config"
)

// kubeplan.yaml's podSecurity: reaches lint's options, and --pod-security
// sets the enforce level over it.
func TestPodSecurityOptions(t *testing.T) {
	parse := func(s string) *config.Config {
		t.Helper()
		c, err := config.Parse("kubeplan.yaml", []byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	full := parse("podSecurity:\n  enforce: baseline\n  enforceVersion: v1.24\n  warn: restricted\n  auditVersion: v1.30\n" +
		"  exemptions: {namespaces: [kube-system], runtimeClasses: [kata]}\n")
	for _, tc := range []struct {
		name string
		cfg  *config.Config
		flag string
		want string // enforce warn audit exemptions (an unset mode is ":v0.0"); "nil" for no settings
	}{
		{"none", nil, "", "nil"},
		{"kubeplan.yaml", full, "", "baseline:v1.24 restricted:latest privileged:v1.30 [kube-system] [kata]"},
		{"short form", parse("podSecurity: restricted\n"), "", "restricted:latest :v0.0 :v0.0 [] []"},
		{"flag alone", nil, "restricted:v1.30", "restricted:v1.30 :v0.0 :v0.0 [] []"},
		{"flag over kubeplan.yaml's enforce", full, "restricted", "restricted:latest restricted:latest privileged:v1.30 [kube-system] [kata]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, lo, err := New(tc.cfg, Options{Overrides: Overrides{PodSecurity: tc.flag}}).Lint(Set{})
			if err != nil {
				t.Fatal(err)
			}
			got := "nil"
			if p := lo.PodSecurity; p != nil {
				got = fmt.Sprintf("%s %s %s %v %v", p.Enforce, p.Warn, p.Audit, p.ExemptNamespaces, p.ExemptRuntimeClasses)
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	_, _, err := New(nil, Options{Overrides: Overrides{PodSecurity: "baseline:1.24"}}).Lint(Set{})
	if err == nil || !strings.Contains(err.Error(), `--pod-security "baseline:1.24"`) {
		t.Errorf("a bad --pod-security: %v", err)
	}
}
