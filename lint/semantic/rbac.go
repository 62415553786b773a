package semantic

import (
	"k8s.io/apimachinery/pkg/api/validation/path"
)

const rbacGroup = "rbac.authorization.k8s.io"

// policyRules checks the rules of a Role (namespaced) or ClusterRole:
// verbs, and either resources with API groups or non-resource URLs.
func (s *sem) policyRules(rules []string, cluster bool) {
	s.items(rules, func(r []string, m map[string]any) {
		if len(listOf(m["verbs"])) == 0 {
			s.required(s.at(r, "verbs"), "verbs must contain at least one value")
		}
		if len(listOf(m["nonResourceURLs"])) > 0 {
			if !cluster {
				s.bad(s.at(r, "nonResourceURLs"), "Invalid value: namespaced rules cannot apply to non-resource URLs; use a ClusterRole")
			}
			if len(listOf(m["apiGroups"])) > 0 || len(listOf(m["resources"])) > 0 || len(listOf(m["resourceNames"])) > 0 {
				s.bad(s.at(r, "nonResourceURLs"), "Invalid value: rules cannot apply to both regular resources and non-resource URLs; split the rule")
			}
			return
		}
		if len(listOf(m["apiGroups"])) == 0 {
			s.required(s.at(r, "apiGroups"), "resource rules must supply at least one api group (\"\" is the core group)")
		}
		if len(listOf(m["resources"])) == 0 {
			s.required(s.at(r, "resources"), "resource rules must supply at least one resource")
		}
	})
}

// binding checks a RoleBinding or ClusterRoleBinding: roleRef and subjects.
func (s *sem) binding(cluster bool) {
	ref := p("roleRef")
	if g, ok := s.str(s.at(ref, "apiGroup")); ok && g != rbacGroup {
		s.bad(s.at(ref, "apiGroup"), "Unsupported value: %q: supported values: %q", g, rbacGroup)
	}
	kinds := []string{"Role", "ClusterRole"}
	if cluster {
		kinds = []string{"ClusterRole"}
	}
	s.enum(s.at(ref, "kind"), kinds...)
	if name, ok := s.str(s.at(ref, "name")); ok {
		if name == "" {
			s.required(s.at(ref, "name"), "the role to bind")
		} else {
			s.msgs(s.at(ref, "name"), name, path.ValidatePathSegmentName(name, false))
		}
	}
	s.items(p("subjects"), func(sub []string, m map[string]any) {
		name, _ := m["name"].(string)
		group, _ := m["apiGroup"].(string)
		if name == "" {
			s.required(s.at(sub, "name"), "the subject's name")
		}
		switch kind, _ := m["kind"].(string); kind {
		case "ServiceAccount":
			if name != "" {
				s.msgs(s.at(sub, "name"), name, DNS1123Subdomain(name))
			}
			if group != "" {
				s.bad(s.at(sub, "apiGroup"), "Unsupported value: %q: a ServiceAccount subject's apiGroup is \"\"; remove it", group)
			}
			if ns, _ := m["namespace"].(string); cluster && ns == "" {
				s.required(s.at(sub, "namespace"), "the ServiceAccount's namespace (a ClusterRoleBinding has none of its own)")
			}
		case "User", "Group":
			if group != "" && group != rbacGroup {
				s.bad(s.at(sub, "apiGroup"), "Unsupported value: %q: supported values: %q", group, rbacGroup)
			}
		case "":
		default:
			s.bad(s.at(sub, "kind"), "Unsupported value: %q: supported values: \"Group\", \"ServiceAccount\", \"User\"", kind)
		}
	})
}
