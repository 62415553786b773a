package kustomize

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/kubeplan/kubeplan/internal/confine"
	"github.com/kubeplan/kubeplan/internal/sops"
	"github.com/kubeplan/kubeplan/manifest"
)

// rootFS is the disk as a kustomize build sees it: read-only, confined to
// root (symbolic links followed), regular files of at most MaxFileBytes
// only, and kustomization files naming remote resources refused before
// kustomize could fetch them. The first refusal is kept, so that the
// problem reported is ours rather than kustomize's wrapping of it.
type rootFS struct {
	filesys.FileSystem
	root        string // resolved
	dir, real   string // the kustomization directory as given, and resolved
	allowRemote bool
	refused     error
	refusedPath string // the path refused, as kustomize named it
	remote      *remoteRef
	// kustomizations read, to find the entry that led to a refusal
	kustomizations []readKustomization
	// urlFiles are the other files read that hold a URL (see withURL).
	urlFiles []urlFile
	// helm holds the helmCharts rendered in-process (see inflateHelm).
	helm *kustomizeHelm
	// dec says how SOPS-encrypted files are read (see manifest.SopsPlain); sops
	// names the ones read (as displayed), sopsProblems what they raised.
	dec          manifest.Decryption
	sops         map[string]bool
	sopsProblems []*manifest.Problem
}

type readKustomization struct {
	File, dir string // as shown, and the directory as kustomize names it
	Data      []byte
}

func newRootFS(dir, root string, allowRemote bool) (*rootFS, error) {
	real, err := confine.RealDir(dir)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", dir, err)
	}
	return &rootFS{FileSystem: filesys.MakeFsOnDisk(), root: root, dir: dir, real: real, allowRemote: allowRemote}, nil
}

// display names a resolved path as the user would: relative to the
// directory they gave, like the files of built objects ("base/x.yaml").
func (f *rootFS) display(p string) string {
	if rel, err := filepath.Rel(f.real, p); err == nil {
		return filepath.Join(f.dir, rel)
	}
	return p
}

func (f *rootFS) refuse(path string, err error) error {
	if f.refused == nil {
		f.refused, f.refusedPath = err, path
	}
	return err
}

// refusedAt is the entry of a kustomization read that led to the refused
// path, when one did.
func (f *rootFS) refusedAt() (string, manifest.Pos, bool) {
	if k, e, ok := innermostEntry(f.kustomizations, f.refusedPath); ok {
		return k.File, manifest.Pos{Line: e.node.Line, Col: e.node.Column}, true
	}
	return "", manifest.Pos{}, false
}

// check refuses a path that exists and resolves outside the root, and
// returns the path to use: the resolved one, so that the disk reads what
// was checked (the kernel resolves "link/.." differently from
// filepath.Clean). A path that does not resolve at all is left to the
// disk, which fails on it.
func (f *rootFS) check(path string) (string, error) {
	real, err := confine.Resolve(path, f.root)
	switch {
	case errors.Is(err, manifest.ErrRefused):
		return "", f.refuse(path, err)
	case err != nil:
		return path, nil
	}
	return real, nil
}

func (f *rootFS) ReadFile(path string) ([]byte, error) {
	if data, ok := f.virtualFile(path); ok {
		return data, nil
	}
	data, err := confine.ReadFile(path, f.root)
	if err != nil {
		if errors.Is(err, manifest.ErrRefused) {
			f.refuse(path, err)
		}
		return nil, err
	}
	if manifest.MaybeSOPS(data) {
		if plain, probs, ok := manifest.SopsPlain(f.display(path), data, f.dec); ok {
			if f.sops == nil {
				f.sops = map[string]bool{}
			}
			f.sops[f.display(path)] = true
			f.sopsProblems = append(f.sopsProblems, probs...)
			if plain == nil {
				return nil, fmt.Errorf("%s does not decrypt", f.display(path))
			}
			return plain, nil
		}
	}
	if out, err, ok := f.readFlatSOPS(path, data); ok {
		return out, err
	}
	if !isKustomizationName(filepath.Base(path)) {
		if r := findRemotePlugin(data, filepath.Dir(path)); r != nil {
			r.file = f.display(path)
			f.remote = r
			return nil, f.refuse(path, r.error(f.allowRemote))
		}
		f.withURL(path, data)
	}
	if f.dec.Reveals() {
		sops.SeenInClear(data) // see there: what the repository says in the clear is no secret
	}
	if isKustomizationName(filepath.Base(path)) {
		if r := findRemote(data, filepath.Dir(path)); r != nil {
			r.file = f.display(path)
			f.remote = r
			return nil, f.refuse(path, r.error(f.allowRemote))
		}
		f.kustomizations = append(f.kustomizations, readKustomization{f.display(path), filepath.Dir(path), data})
		if bytes.Contains(data, []byte("helmCharts")) {
			return f.inflateHelm(path, data)
		}
	}
	return data, nil
}

func (f *rootFS) Open(path string) (filesys.File, error) {
	real, err := confine.Resolve(path, f.root)
	if err != nil {
		if errors.Is(err, manifest.ErrRefused) {
			f.refuse(path, err)
		}
		return nil, err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if !fi.IsDir() {
		if err := confine.CheckRegular(path, fi); err != nil {
			return nil, f.refuse(path, err)
		}
	}
	return f.FileSystem.Open(real)
}

func (f *rootFS) CleanedAbs(path string) (filesys.ConfirmedDir, string, error) {
	if _, ok := f.virtualFile(path); ok {
		d, _, err := f.CleanedAbs(filepath.Dir(path))
		return d, filepath.Base(path), err
	}
	if _, err := f.check(path); err != nil {
		return "", "", err
	}
	return f.FileSystem.CleanedAbs(path)
}

func (f *rootFS) IsDir(path string) bool {
	real, err := f.check(path)
	return err == nil && f.FileSystem.IsDir(real)
}

func (f *rootFS) Exists(path string) bool {
	if _, ok := f.virtualFile(path); ok {
		return true
	}
	real, err := f.check(path)
	return err == nil && f.FileSystem.Exists(real)
}

func (f *rootFS) ReadDir(path string) ([]string, error) {
	real, err := f.check(path)
	if err != nil {
		return nil, err
	}
	return f.FileSystem.ReadDir(real)
}

func (f *rootFS) Glob(pattern string) ([]string, error) {
	ms, err := f.FileSystem.Glob(pattern)
	if err != nil {
		return nil, err
	}
	for _, m := range ms {
		if _, err := f.check(m); err != nil {
			return nil, err
		}
	}
	return ms, nil
}

func (f *rootFS) Walk(path string, fn filepath.WalkFunc) error {
	if _, err := f.check(path); err != nil {
		return err
	}
	return f.FileSystem.Walk(path, fn)
}

var errReadOnly = errors.New("kustomize builds are read-only in kubeplan")

func (f *rootFS) Create(string) (filesys.File, error) { return nil, errReadOnly }
func (f *rootFS) Mkdir(string) error                  { return errReadOnly }
func (f *rootFS) MkdirAll(string) error               { return errReadOnly }
func (f *rootFS) RemoveAll(string) error              { return errReadOnly }
func (f *rootFS) WriteFile(string, []byte) error      { return errReadOnly }
