package kustomize

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/kubeplan/kubeplan/internal/netguard"
	"github.com/kubeplan/kubeplan/manifest"
)

// init installs the guard that refuses every request kustomize or helm
// code makes through Go's default HTTP transport.
func init() { netguard.Install() }

// urlFile is a file a build read that holds "://", kept to find where a
// refused URL came from.
type urlFile struct {
	path string // as shown
	data []byte
}

// withURL keeps a file read (path as kustomize named it) that holds a URL.
func (f *rootFS) withURL(path string, data []byte) {
	if bytes.Contains(data, []byte("://")) {
		f.urlFiles = append(f.urlFiles, urlFile{f.display(path), data})
	}
}

// networkProblem reports a request the guard of internal/netguard refused
// during the build:
// at the place in a file the build read that names the URL, else at the
// kustomization. False when err is not such a refusal.
func (f *rootFS) networkProblem(kfile string, err error) (*manifest.Problem, bool) {
	var nr *netguard.Refused
	if !errors.As(err, &nr) {
		return nil, false
	}
	msg := fmt.Sprintf("kustomize tried to fetch %s: kubeplan never lets kustomize reach the network; vendor the file into the repository and name it by its path", nr.URL)
	files := f.urlFiles
	for _, k := range f.kustomizations {
		files = append(files, urlFile{k.File, k.Data})
	}
	for _, u := range files {
		if i := bytes.Index(u.data, []byte(nr.URL)); i >= 0 {
			before := u.data[:i]
			line := bytes.Count(before, []byte("\n")) + 1
			col := i - (bytes.LastIndexByte(before, '\n') + 1) + 1
			return &manifest.Problem{File: u.path, Pos: manifest.Pos{Line: line, Col: col}, Rule: "kustomize", Message: msg}, true
		}
	}
	return &manifest.Problem{File: kfile, Pos: manifest.Pos{Line: 1, Col: 1}, Rule: "kustomize", Message: msg}, true
}
