package config

import (
	yaml "go.yaml.in/yaml/v3"
	psaapi "k8s.io/pod-security-admission/api"
)

// PodSecurity is podSecurity: the Pod Security Admission settings the
// pod-security lint rule judges pod templates with, as the API server's
// AdmissionConfiguration has them: the default level and version of each
// mode (a Namespace's pod-security.kubernetes.io labels override them) and
// the exemptions. Empty means not set (privileged, latest).
type PodSecurity struct {
	Enforce, EnforceVersion string
	Warn, WarnVersion       string
	Audit, AuditVersion     string
	// ExemptNamespaces and ExemptRuntimeClasses are exemptions.namespaces
	// and exemptions.runtimeClasses.
	ExemptNamespaces     []string
	ExemptRuntimeClasses []string
	// At is where podSecurity: is.
	At Pos
}

// podSecurity reads podSecurity: either a level ("baseline", the
// enforce level at the latest version) or a mapping of enforce,
// enforceVersion, warn, warnVersion, audit, auditVersion and exemptions.
func (d decoder) podSecurity(n *yaml.Node, c *Config) error {
	n = deref(n)
	if isNull(n) {
		return nil
	}
	p := &PodSecurity{At: at(n)}
	if n.Kind == yaml.ScalarNode {
		if err := d.psaLevel(n, "podSecurity", &p.Enforce); err != nil {
			return err
		}
		c.PodSecurity = p
		return nil
	}
	level := func(key string, dst *string) func(*yaml.Node) error {
		return func(v *yaml.Node) error { return d.psaLevel(v, "podSecurity."+key, dst) }
	}
	version := func(key string, dst *string) func(*yaml.Node) error {
		return func(v *yaml.Node) error { return d.psaVersion(v, "podSecurity."+key, dst) }
	}
	err := d.fields(n, "podSecurity", map[string]func(*yaml.Node) error{
		"enforce":        level("enforce", &p.Enforce),
		"enforceVersion": version("enforceVersion", &p.EnforceVersion),
		"warn":           level("warn", &p.Warn),
		"warnVersion":    version("warnVersion", &p.WarnVersion),
		"audit":          level("audit", &p.Audit),
		"auditVersion":   version("auditVersion", &p.AuditVersion),
		"exemptions": func(v *yaml.Node) error {
			var err error
			return d.fields(v, "podSecurity.exemptions", map[string]func(*yaml.Node) error{
				"namespaces": func(v *yaml.Node) error {
					p.ExemptNamespaces, _, err = d.strList(v, "podSecurity.exemptions.namespaces")
					return err
				},
				"runtimeClasses": func(v *yaml.Node) error {
					p.ExemptRuntimeClasses, _, err = d.strList(v, "podSecurity.exemptions.runtimeClasses")
					return err
				},
				"usernames": func(v *yaml.Node) error {
					return d.errorf(deref(v), "podSecurity.exemptions.usernames: lint and plan judge pod templates, not requests: a user exemption means nothing offline (namespaces and runtimeClasses do)")
				},
			})
		},
	})
	if err != nil {
		return err
	}
	c.PodSecurity = p
	return nil
}

// psaLevel reads privileged, baseline or restricted, as the
// pod-security.kubernetes.io/<mode> label takes them.
func (d decoder) psaLevel(n *yaml.Node, where string, dst *string) error {
	s, err := d.str(n, where)
	if err != nil || s == "" {
		return err
	}
	if _, err := psaapi.ParseLevel(s); err != nil {
		return d.errorf(deref(n), "%s: want privileged, baseline or restricted, got %q", where, s)
	}
	*dst = s
	return nil
}

// psaVersion reads latest or v1.N, as the
// pod-security.kubernetes.io/<mode>-version label takes them.
func (d decoder) psaVersion(n *yaml.Node, where string, dst *string) error {
	s, err := d.str(n, where)
	if err != nil || s == "" {
		return err
	}
	if _, err := psaapi.ParseVersion(s); err != nil {
		return d.errorf(deref(n), "%s: want latest or a Kubernetes minor version such as v1.30, got %q", where, s)
	}
	*dst = s
	return nil
}
