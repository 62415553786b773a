package config

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"
)

// MaxClusterName bounds a cluster name (a kubeconfig context name may be
// as long as a DNS subdomain).
const MaxClusterName = 253

// cluster reads cluster: or its alias context: (the same logical name)
// into s.Cluster; giving both is an error at the second.
func (d decoder) cluster(where, key string, s *Settings) func(*yaml.Node) error {
	return func(v *yaml.Node) error {
		other := map[string]string{"cluster": "context", "context": "cluster"}[key]
		if p, ok := s.Pos[other]; ok {
			return d.errorf(deref(v), "%s.%s: %s is already given at line %d (context: is another name for cluster:); keep one", where, key, other, p.Line)
		}
		name, err := d.str(v, where+"."+key)
		if err != nil || name == "" {
			return err // null or "": not set
		}
		s.Pos[key] = at(deref(v))
		s.Pos["cluster"] = at(deref(v))
		if err := CheckClusterName(name); err != nil {
			return d.errorf(deref(v), "%s.%s: %v", where, key, err)
		}
		s.Cluster = name
		return nil
	}
}

// kubeconfigRefused is the error of a kubeconfig: key. kubeplan.yaml is
// written by whoever writes the repository, a pull request's author
// included, so it never names credentials: the value is not even read.
func (d decoder) kubeconfigRefused(v *yaml.Node, where string) error {
	return d.errorf(v, "%s.kubeconfig: kubeplan.yaml cannot name a kubeconfig file (a pull request could change it, or point it at the runner's own credentials); "+
		"name the cluster with cluster: NAME and map NAME to a kubeconfig on the runner: --clusters NAME=KUBECONFIG or KUBEPLAN_CLUSTERS (see docs/config.md)", where)
}

// CheckClusterName checks a logical cluster name: 1 to MaxClusterName
// bytes of ASCII letters, digits and ". _ - : @ /", starting with a
// letter or a digit (what kubeconfig
// context names use: kind-dev, gke_p_z_c, arn:aws:eks:...:cluster/prod,
// admin@prod). Nothing else: not the separators of --clusters
// NAME=KUBECONFIG#CONTEXT,..., and nothing that markdown, a shell or a
// log reader would take for syntax.
func CheckClusterName(name string) error {
	if name == "" {
		return fmt.Errorf("a cluster name cannot be empty")
	}
	if len(name) > MaxClusterName {
		return fmt.Errorf("the cluster name is longer than %d bytes", MaxClusterName)
	}
	if c := name[0]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
		return fmt.Errorf("cluster name %q: it must start with a letter or a digit", name)
	}
	if i := strings.IndexFunc(name, func(r rune) bool {
		return !(r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("._-:@/", r)))
	}); i >= 0 {
		r, _ := utf8.DecodeRuneInString(name[i:])
		return fmt.Errorf("cluster name %q: %q is not allowed in a cluster name (letters, digits and . _ - : @ / only)", name, r)
	}
	return nil
}
