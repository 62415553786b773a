package workspace

import (
	"fmt"

	psaapi "k8s.io/pod-security-admission/api"

	"github.com/kubeplan/kubeplan/internal/config"
	"github.com/kubeplan/kubeplan/lint"
)

// podSecurity is what the pod-security rule judges with: kubeplan.yaml's
// podSecurity:, with --pod-security LEVEL[:VERSION] over its enforce
// level. nil when neither is set (privileged: the rule does nothing unless
// a Namespace of the set has levels).
func podSecurity(c *config.Config, flag string) (*lint.PodSecurity, error) {
	var out *lint.PodSecurity
	if p := c.PodSecurity; p != nil {
		out = &lint.PodSecurity{ExemptNamespaces: p.ExemptNamespaces, ExemptRuntimeClasses: p.ExemptRuntimeClasses}
		modes := []struct {
			key, level, version string
			dst                 *psaapi.LevelVersion
		}{
			{"enforce", p.Enforce, p.EnforceVersion, &out.Enforce},
			{"warn", p.Warn, p.WarnVersion, &out.Warn},
			{"audit", p.Audit, p.AuditVersion, &out.Audit},
		}
		for _, m := range modes {
			if m.level == "" && m.version == "" {
				continue
			}
			level := m.level
			if level == "" {
				level = "privileged"
			}
			if m.version != "" {
				level += ":" + m.version
			}
			lv, err := lint.ParsePodSecurityLevel(level)
			if err != nil {
				return nil, fmt.Errorf("%s:%d:%d: podSecurity.%s: %w", c.File, p.At.Line, p.At.Col, m.key, err)
			}
			*m.dst = lv
		}
	}
	if flag != "" {
		lv, err := lint.ParsePodSecurityLevel(flag)
		if err != nil {
			return nil, fmt.Errorf("--pod-security %q: %w", flag, err)
		}
		if out == nil {
			out = &lint.PodSecurity{}
		}
		out.Enforce = lv
	}
	return out, nil
}
