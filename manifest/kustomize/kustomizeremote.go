package kustomize

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/kubeplan/kubeplan/manifest"
)

// remoteRef is a remote resource named by a kustomization file.
type remoteRef struct {
	file string
	manifest.Pos
	url string
	// what names the plugin config field that names url ("PatchTransformer
	// path"); "" for a kustomization's own entry.
	what string
}

func (r *remoteRef) error(allowRemote bool) error {
	return fmt.Errorf("%s:%d:%d: %w: %s", r.file, r.Line, r.Col, manifest.ErrRefused, r.message(allowRemote))
}

func (r *remoteRef) message(allowRemote bool) string {
	if r.what != "" {
		return r.what + " names " + r.url + ": kustomize would fetch it over the network, which kubeplan never lets it do; vendor the file into the repository"
	}
	if allowRemote {
		return "remote kustomize resource " + r.url + " is not fetched, even when remote resources are allowed: kustomize cannot bound such a fetch in time or size; vendor it into the repository"
	}
	return "remote kustomize resources are not fetched: vendor " + r.url + " into the repository"
}

// findRemote returns the first remote resource the kustomization data
// (in the resolved directory dir) names, nil when there is none or the
// file does not parse (kustomize reports that).
func findRemote(data []byte, dir string) *remoteRef {
	for _, e := range kustomizationEntries(data) {
		if inlinePlugin(e.field, e.node.Value) {
			if r := inlineRemote(e.node, dir, data); r != nil {
				return r
			}
			continue
		}
		if isRemote(e.path, dir) || isRemote(e.node.Value, dir) {
			return &remoteRef{Pos: manifest.Pos{Line: e.node.Line, Col: e.node.Column}, url: e.node.Value}
		}
	}
	return nil
}

// scpUser is the "user@" that makes kustomize read an entry as an
// scp-style git address (git@github.com:org/repo).
var scpUser = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9-]*@`) })

// isRemote reports whether kustomize would fetch the entry v: a URL (git
// or http), a github.com/ address, or an scp-style git address ("user@"
// then a host and a path). kustomize tries an scp-style address as a git
// repository even when a directory of that name exists (and a file of
// that name it cannot read as a resource), so its existence does not
// matter; dir is where the entry is read.
func isRemote(v, dir string) bool {
	_ = dir
	v = strings.TrimSpace(v)
	l := strings.TrimPrefix(strings.ToLower(v), "git::")
	if strings.Contains(l, "://") || strings.HasPrefix(l, "github.com/") || strings.HasPrefix(l, "github.com:") {
		return true
	}
	if m := scpUser().FindString(l); m != "" {
		return strings.ContainsAny(l[len(m):], ":/")
	}
	return false
}
