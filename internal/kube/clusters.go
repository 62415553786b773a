package kube

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubeplan/kubeplan/internal/config"
)

// ClustersEnv is the environment variable holding the runner's cluster
// map, in the syntax of --clusters, entries separated by commas.
const ClustersEnv = "KUBEPLAN_CLUSTERS"

// Target is the kubeconfig file and context a cluster name stands for: ""
// Kubeconfig is the command line's kubeconfig; "" Context is the file's
// current context (with a Kubeconfig) or the context of the same name.
type Target struct {
	Kubeconfig string
	Context    string
}

// Clusters is the runner's map from the logical cluster names of
// kubeplan.yaml to kubeconfigs and contexts: the run's allow-list. A
// name it does not hold is refused (NotMappedError) before anything is
// read or connected. Only the runner writes it (--clusters,
// KUBEPLAN_CLUSTERS), never the repository.
type Clusters map[string]Target

// ParseClusters reads the map from the environment variable's value and
// the --clusters flags, each "NAME", "NAME=KUBECONFIG", "NAME=#CONTEXT",
// "NAME#CONTEXT" or "NAME=KUBECONFIG#CONTEXT", several separated by
// commas. NAME alone is the command line kubeconfig's context NAME;
// a relative KUBECONFIG is made absolute. A flag's entry replaces the
// environment's of the same name; a name given twice in one place is an
// error.
func ParseClusters(env string, flags []string) (Clusters, error) {
	m := Clusters{}
	fromEnv, err := parseEntries([]string{env}, "$"+ClustersEnv)
	if err != nil {
		return nil, err
	}
	fromFlags, err := parseEntries(flags, "--clusters")
	if err != nil {
		return nil, err
	}
	for _, part := range []Clusters{fromEnv, fromFlags} {
		for k, v := range part {
			m[k] = v
		}
	}
	return m, nil
}

func parseEntries(values []string, where string) (Clusters, error) {
	m := Clusters{}
	for _, v := range values {
		for _, e := range strings.Split(v, ",") {
			e = strings.TrimSpace(e)
			if e == "" {
				continue
			}
			name, t, err := parseEntry(e)
			if err != nil {
				return nil, fmt.Errorf("%s %q: %w", where, e, err)
			}
			if _, dup := m[name]; dup {
				return nil, fmt.Errorf("%s: cluster %q is mapped twice", where, name)
			}
			m[name] = t
		}
	}
	return m, nil
}

// parseEntry reads NAME[=KUBECONFIG][#CONTEXT].
func parseEntry(e string) (string, Target, error) {
	var t Target
	rest := ""
	name, file, hasFile := strings.Cut(e, "=")
	if !hasFile {
		name, rest, _ = strings.Cut(e, "#")
		t.Context = rest
	} else {
		if i := strings.LastIndex(file, "#"); i >= 0 {
			file, t.Context = file[:i], file[i+1:]
		}
		if file != "" {
			abs, err := filepath.Abs(file)
			if err != nil {
				return "", t, err
			}
			t.Kubeconfig = abs
		}
	}
	if err := config.CheckClusterName(name); err != nil {
		return "", t, err
	}
	if t.Kubeconfig == "" && t.Context == "" {
		t.Context = name // NAME, NAME= or NAME#: the context of that name
	}
	return name, t, nil
}

// Names are the mapped names, sorted.
func (m Clusters) Names() []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Flags are the connection flags of cluster name (set at where, the
// place in kubeplan.yaml) from base, the command line's: see ForCluster.
// A name the map does not hold is a NotMappedError.
func (m Clusters) Flags(base *genericclioptions.ConfigFlags, name, where string) (*genericclioptions.ConfigFlags, error) {
	t, ok := m[name]
	if !ok {
		return nil, &NotMappedError{Name: name, At: where, Mapped: m.Names()}
	}
	return ForCluster(base, t.Kubeconfig, t.Context), nil
}

// NotMappedError refuses a cluster name the runner did not map.
type NotMappedError struct {
	Name   string
	At     string // kubeplan.yaml:LINE:COL
	Mapped []string
}

func (e *NotMappedError) Error() string {
	mapped := "none"
	if len(e.Mapped) > 0 {
		mapped = strings.Join(e.Mapped, ", ")
	}
	at := ""
	if e.At != "" {
		at = e.At + ": "
	}
	return fmt.Sprintf("%scluster %q is not mapped on this runner (mapped: %s); nothing was connected. "+
		"The runner chooses the credentials: pass --clusters %s=KUBECONFIG (or --clusters %s for the context of that name) or set %s",
		at, e.Name, mapped, e.Name, e.Name, ClustersEnv)
}
