package manifest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// remoteRef is a remote resource named by a kustomization file.
type remoteRef struct {
	file string
	Pos
	url string
}

func (r *remoteRef) error(allowRemote bool) error {
	return fmt.Errorf("%s:%d:%d: %w: %s", r.file, r.Line, r.Col, ErrRefused, r.message(allowRemote))
}

func (r *remoteRef) message(allowRemote bool) string {
	if allowRemote {
		return "remote kustomize resource " + r.url + " is not fetched, even when remote resources are allowed: kustomize cannot bound such a fetch in time or size; vendor it into the repository"
	}
	return "remote kustomize resources are not fetched: vendor " + r.url + " into the repository"
}

// kustomization fields that name files or bases, which kustomize fetches
// when they are URLs: lists of entries, and lists of mappings whose
// listed keys are entries.
var (
	remoteListFields = []string{"resources", "bases", "components", "crds", "configurations",
		"generators", "transformers", "validators", "patchesStrategicMerge"}
	remoteItemFields = map[string][]string{
		"patches":            {"path"},
		"patchesJson6902":    {"path"},
		"replacements":       {"path"},
		"configMapGenerator": {"files", "envs", "env"},
		"secretGenerator":    {"files", "envs", "env"},
	}
)

func isKustomizationName(base string) bool {
	for _, n := range kustomizationNames {
		if base == n {
			return true
		}
	}
	return false
}

// findRemote returns the first remote resource the kustomization data
// (in the resolved directory dir) names, nil when there is none or the
// file does not parse (kustomize reports that).
func findRemote(data []byte, dir string) *remoteRef {
	doc, _, err := decodeYAML(data)
	if err != nil || doc == nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	top := doc.Content[0]
	var entries, generated []*yaml.Node
	for i := 0; i+1 < len(top.Content); i += 2 {
		key, val := top.Content[i].Value, top.Content[i+1]
		switch {
		case key == "openapi":
			entries = append(entries, mappingValues(val, "path")...)
		case contains(remoteListFields, key):
			entries = append(entries, scalars(val)...)
		case remoteItemFields[key] != nil && val.Kind == yaml.SequenceNode:
			for _, item := range val.Content {
				vs := mappingValues(item, remoteItemFields[key]...)
				if strings.HasSuffix(key, "Generator") {
					generated = append(generated, vs...)
				} else {
					entries = append(entries, vs...)
				}
			}
		}
	}
	at := func(n *yaml.Node) *remoteRef { return &remoteRef{Pos: Pos{n.Line, n.Column}, url: n.Value} }
	for _, n := range entries {
		if isRemote(n.Value, dir) {
			return at(n)
		}
	}
	for _, n := range generated {
		v := n.Value
		if _, after, ok := strings.Cut(v, "="); ok {
			v = after // "key=path"
		}
		if isRemote(v, dir) || isRemote(n.Value, dir) {
			return at(n)
		}
	}
	return nil
}

// mappingValues are the scalar entries under keys of the mapping n.
func mappingValues(n *yaml.Node, keys ...string) []*yaml.Node {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	var out []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		if contains(keys, n.Content[i].Value) {
			out = append(out, scalars(n.Content[i+1])...)
		}
	}
	return out
}

// scalars is n itself when it is a scalar, else its scalar items.
func scalars(n *yaml.Node) []*yaml.Node {
	switch n.Kind {
	case yaml.ScalarNode:
		return []*yaml.Node{n}
	case yaml.SequenceNode:
		var out []*yaml.Node
		for _, c := range n.Content {
			if c.Kind == yaml.ScalarNode {
				out = append(out, c)
			}
		}
		return out
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// scpUser is the "user@" that makes kustomize read an entry as an
// scp-style git address (git@github.com:org/repo).
var scpUser = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9-]*@`)

// isRemote reports whether kustomize would fetch the entry v: a URL (git
// or http), a github.com/ address, or an scp-style git address that is not
// a file in dir.
func isRemote(v, dir string) bool {
	v = strings.TrimSpace(v)
	l := strings.TrimPrefix(strings.ToLower(v), "git::")
	if strings.Contains(l, "://") || strings.HasPrefix(l, "github.com/") || strings.HasPrefix(l, "github.com:") {
		return true
	}
	if scpUser.MatchString(v) {
		_, err := os.Lstat(filepath.Join(dir, v))
		return err != nil
	}
	return false
}
