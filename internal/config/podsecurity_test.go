package config

import (
	"fmt"
	"testing"
)

func TestParsePodSecurity(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"absent", "kubeVersion: \"1.37\"\n", "<nil>"},
		{"a level", "podSecurity: baseline\n", "baseline/ / / [] [] 1:14"},
		{"every key", "podSecurity:\n  enforce: restricted\n  enforceVersion: v1.24\n  warn: restricted\n  warnVersion: latest\n" +
			"  audit: baseline\n  auditVersion: v1.30\n  exemptions:\n    namespaces: [kube-system]\n    runtimeClasses: [kata, gvisor]\n",
			"restricted/v1.24 restricted/latest baseline/v1.30 [kube-system] [kata gvisor] 2:3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse("k.yaml", []byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			got := "<nil>"
			if p := c.PodSecurity; p != nil {
				got = fmt.Sprintf("%s/%s %s/%s %s/%s %v %v %d:%d", p.Enforce, p.EnforceVersion, p.Warn, p.WarnVersion, p.Audit, p.AuditVersion,
					p.ExemptNamespaces, p.ExemptRuntimeClasses, p.At.Line, p.At.Col)
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestParsePodSecurityErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"unknown level", "podSecurity: strict\n", `k.yaml:1:14: podSecurity: want privileged, baseline or restricted, got "strict"`},
		{"unknown mode level", "podSecurity:\n  warn: Restricted\n", `k.yaml:2:9: podSecurity.warn: want privileged, baseline or restricted, got "Restricted"`},
		{"bad version", "podSecurity:\n  enforceVersion: \"1.24\"\n", `k.yaml:2:19: podSecurity.enforceVersion: want latest or a Kubernetes minor version such as v1.30, got "1.24"`},
		{"unknown key", "podSecurity:\n  enforced: baseline\n", `k.yaml:2:3: unknown key "enforced" in podSecurity (see docs/config.md)`},
		{"usernames", "podSecurity:\n  exemptions:\n    usernames: [admin]\n", `k.yaml:3:16: podSecurity.exemptions.usernames: lint and plan judge pod templates, not requests: a user exemption means nothing offline (namespaces and runtimeClasses do)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("k.yaml", []byte(tc.in))
			if err == nil || err.Error() != tc.want {
				t.Errorf("got %v\nwant %s", err, tc.want)
			}
		})
	}
}
