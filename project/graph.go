package project

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// graph is the reference graph of kustomizations.
type graph struct {
	root  string
	nodes map[string]*node
	// usedKust marks kustomization directories another one references;
	// usedFiles the files and usedDirs the plain directories referenced.
	usedKust, usedFiles, usedDirs map[string]bool
	// usedCharts marks the chart directories a kustomization's
	// helmCharts: render.
	usedCharts map[string]bool
}

type node struct {
	file      string
	component bool
	kusts     []string // referenced kustomization directories
	files     []string // referenced files
	resolved  bool
	refs      []string
	// charts and helmFiles are what its helmCharts: read.
	charts, helmFiles []string
	// namespace is its namespace: field.
	namespace string
}

func newGraph(root string) *graph {
	return &graph{root: root, nodes: map[string]*node{}, usedKust: map[string]bool{}, usedFiles: map[string]bool{}, usedDirs: map[string]bool{}, usedCharts: map[string]bool{}}
}

// node parses the kustomization of dir once.
func (g *graph) node(dir string) *node {
	if n, ok := g.nodes[dir]; ok {
		return n
	}
	n := readNode(dir)
	g.nodes[dir] = n
	return n
}

// readNodes parses the kustomizations of dirs, a few at a time (most of
// finding projects is parsing them).
func (g *graph) readNodes(dirs []string) {
	nodes := make([]*node, len(dirs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, dir := range dirs {
		if _, ok := g.nodes[dir]; ok {
			continue
		}
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			nodes[i] = readNode(dir)
		})
	}
	wg.Wait()
	for i, n := range nodes {
		if n != nil {
			g.nodes[dirs[i]] = n
		}
	}
}

func readNode(dir string) *node {
	n := &node{file: kustomizationFile(dir)}
	k := readKustomization(n.file)
	n.component, n.refs, n.namespace = k.component, k.paths, k.namespace
	n.charts, n.helmFiles = k.charts, k.helmFiles
	return n
}

// namespaces are the namespace: fields of the kustomizations parsed, by
// directory.
func (g *graph) namespaces() map[string]string {
	out := make(map[string]string, len(g.nodes))
	for dir, n := range g.nodes {
		out[dir] = n.namespace
	}
	return out
}

// resolve turns dir's references into edges, parsing the kustomizations
// they name (also those outside the walk: a base in an excluded or outer
// directory still belongs to a project's files).
func (g *graph) resolve(dir string) {
	n := g.node(dir)
	if n.resolved {
		return
	}
	n.resolved = true
	g.resolveCharts(dir, n)
	for _, r := range n.refs {
		p := filepath.Clean(filepath.Join(dir, filepath.FromSlash(r)))
		fi, err := os.Stat(p)
		switch {
		case err != nil:
			continue
		case fi.IsDir() && kustomizationFile(p) != "":
			if p == dir {
				continue
			}
			n.kusts = append(n.kusts, p)
			g.usedKust[p] = true
			g.resolve(p)
		case fi.IsDir():
			g.usedDirs[p] = true
		default:
			n.files = append(n.files, p)
			g.usedFiles[p] = true
		}
	}
}

// closure is every file the kustomization in dir reads, relative to the
// root, sorted.
func (g *graph) closure(dir string) []string {
	seen := map[string]bool{}
	files := map[string]bool{}
	var visit func(string)
	visit = func(d string) {
		if seen[d] {
			return
		}
		seen[d] = true
		n := g.node(d)
		files[g.rel(n.file)] = true
		for _, f := range n.files {
			files[g.rel(f)] = true
		}
		for _, k := range n.kusts {
			visit(k)
		}
	}
	visit(dir)
	out := make([]string, 0, len(files))
	for f := range files {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// mark sets seen for dir and every kustomization it uses.
func (g *graph) mark(dir string, seen map[string]bool) {
	if seen[dir] {
		return
	}
	seen[dir] = true
	for _, k := range g.node(dir).kusts {
		g.mark(k, seen)
	}
}

// rel is p relative to the root, with "/".
func (g *graph) rel(p string) string {
	r, err := filepath.Rel(g.root, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(r)
}

// reached reports whether a manifest file is a kustomization's: in the
// directory tree of one (kustomize reads files only there; one it does
// not reference, such as a patch left over, is no manifest either),
// referenced by one, or in a plain directory referenced by one.
func (g *graph) reached(path string) bool {
	if g.usedFiles[path] {
		return true
	}
	for d := filepath.Dir(path); inTree(g.root, d); d = filepath.Dir(d) {
		if g.usedDirs[d] || kustomizationFile(d) != "" {
			return true
		}
		if d == g.root || d == filepath.Dir(d) {
			break
		}
	}
	return false
}

func inTree(root, p string) bool {
	r, err := filepath.Rel(root, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}

// manifestProjects groups the manifest files no kustomization reaches
// under the top-most directories holding a Kubernetes object.
func manifestProjects(root string, t *tree, g *graph) []Project {
	var free []string
	tops := map[string]bool{}
	for _, f := range t.files {
		if g.reached(f) {
			continue
		}
		free = append(free, f)
		if holdsObject(f, t.entries[f]) {
			tops[filepath.Dir(f)] = true
		}
	}
	byTop := map[string][]string{}
	for _, f := range free {
		top := ""
		for d := filepath.Dir(f); ; d = filepath.Dir(d) {
			if tops[d] {
				top = d // keep going: the top-most wins
			}
			if d == root || d == filepath.Dir(d) {
				break
			}
		}
		if top != "" {
			byTop[top] = append(byTop[top], g.rel(f))
		}
	}
	var out []Project
	for top, files := range byTop {
		slices.Sort(files)
		out = append(out, Project{Path: g.rel(top), Kind: Manifests, Files: files})
	}
	return out
}
