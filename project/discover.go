package project

import (
	"github.com/kubeplan/kubeplan/internal/guard"

	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/kubeplan/kubeplan/internal/config"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/loader"
)

// Kind is how a project is read.
type Kind string

const (
	// Kustomize is a kustomization, built.
	Kustomize Kind = "kustomize"
	// Manifests is a directory of plain manifest files, read as they are.
	Manifests Kind = "manifests"
)

// Project is one unit of a repository (see the package doc).
type Project struct {
	// Name is Path with "/" turned into "-" (the root's is its base
	// name), unique among the projects of one Discover.
	Name string `json:"name"`
	// Path is the project's directory relative to the root, with "/";
	// "." for the root itself.
	Path string `json:"path"`
	Kind Kind   `json:"kind"`
	// Files are the files the project reads, relative to the root with
	// "/", sorted; a kustomization's bases outside the root start "../".
	Files []string `json:"files"`

	// The settings below come from kubeplan.yaml (the project's entry,
	// then defaults) and, for Namespace, the kustomization's namespace:
	// field (see Load). Discover leaves them empty.

	// Namespace is where the project's namespaced objects go and where its
	// ApplySet parent and lock live; "" means the kubeconfig context's.
	Namespace string `json:"namespace,omitempty"`
	// ApplySet is the parent, as "configmap/NAME" or "secret/NAME".
	ApplySet string `json:"applyset,omitempty"`
	// ClusterName is the logical name of the project's cluster (cluster:
	// in kubeplan.yaml); the runner maps it to a kubeconfig and context
	// (--clusters, KUBEPLAN_CLUSTERS) and refuses a name it does not map.
	// "" means the command line's kubeconfig and context.
	ClusterName string `json:"cluster,omitempty"`
	// ClusterAt is where ClusterName is set, "kubeplan.yaml:LINE:COL",
	// for the runner's messages.
	ClusterAt string `json:"-"`
	// KubeVersion is the Kubernetes version lint checks against ("" means
	// the default or the config's top-level kubeVersion).
	KubeVersion string `json:"kubeVersion,omitempty"`
	// DependsOn names projects that must be planned and applied first.
	DependsOn []string `json:"dependsOn,omitempty"`
	// Interval is how often kubeplan serve reconciles the project (0: its
	// --interval).
	Interval time.Duration `json:"interval,omitempty"`
	// Helm, for a helm project, says how its chart is rendered.
	Helm *HelmSettings `json:"helm,omitempty"`
	// Guards are the rules over what the project's plan does (kubeplan.yaml
	// guards:, and the built-in rules); never nil once the workspace has
	// loaded the project.
	Guards *guard.Set `json:"-"`
	// Windows are the project's change windows (its entry's windows:,
	// else the defaults'); nil means none: always open.
	Windows *guard.Schedule `json:"-"`
	// RollOnConfigChange makes a change of the data of the project's
	// ConfigMaps and Secrets roll the pods that read them (its entry's
	// rollOnConfigChange:, else the defaults'; docs/roll.md).
	RollOnConfigChange bool `json:"rollOnConfigChange,omitempty"`
	// Yield are the fields the project leaves to other controllers
	// (kubeplan.yaml yield: and yieldDefaults:; plan.Options.Yield).
	Yield config.Yield `json:"-"`
}

// Cluster names the project's cluster for tables and for bounding work per
// cluster: its logical name, "" for the command line's.
func (p Project) Cluster() string { return p.ClusterName }

// Options say what Discover skips.
type Options struct {
	// Exclude holds the loader's exclude globs (manifest.Options.Exclude).
	Exclude []string
	// BuildsOnly finds the kustomizations and charts alone: the files of
	// plain manifest directories are not read to tell whether they hold
	// objects (lint asks which builds read a file the pre-commit hook
	// passes; it needs no other project). Names may then differ from
	// Find's without it where a manifests directory's name is a build's.
	BuildsOnly bool
}

// Discover finds the projects under root, sorted by path.
func Discover(root string) ([]Project, error) { return DiscoverWith(root, Options{}) }

// DiscoverWith is Discover with options.
func DiscoverWith(root string, opts Options) ([]Project, error) {
	ps, _, err := Find(root, opts)
	return ps, err
}

// Find is DiscoverWith that also counts the kustomizations found under
// root (Components and used bases included): lint splits a directory into
// its projects only when it holds some.
func Find(root string, opts Options) ([]Project, int, error) {
	ps, n, _, err := find(root, opts)
	return ps, n, err
}

// find is Find that also returns the graph of the kustomizations read.
func find(root string, opts Options) ([]Project, int, *graph, error) {
	fi, err := os.Stat(root)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("cannot read %s: %w", root, err)
	}
	if !fi.IsDir() {
		return nil, 0, nil, fmt.Errorf("%s is not a directory", root)
	}
	root = filepath.Clean(root)
	t, err := walk(root, opts.Exclude)
	if err != nil {
		return nil, 0, nil, err
	}
	g := newGraph(root)
	g.readNodes(t.kdirs)
	for _, dir := range t.kdirs {
		g.resolve(dir)
	}
	var out []Project
	for _, dir := range t.kdirs {
		n := g.nodes[dir]
		if n.component || g.usedKust[dir] {
			continue
		}
		out = append(out, Project{Path: g.rel(dir), Kind: Kustomize, Files: g.closure(dir)})
	}
	// Kustomizations that only a reference cycle or an unused Component
	// reaches are projects too: kustomize reports the cycle when built.
	covered := map[string]bool{}
	for _, p := range out {
		g.mark(filepath.Join(root, filepath.FromSlash(p.Path)), covered)
	}
	for _, dir := range t.kdirs {
		if !covered[dir] && !g.nodes[dir].component {
			out = append(out, Project{Path: g.rel(dir), Kind: Kustomize, Files: g.closure(dir)})
			g.mark(dir, covered)
		}
	}
	if !opts.BuildsOnly {
		out = append(out, manifestProjects(root, t, g)...)
	}
	for _, c := range t.charts {
		if !g.usedCharts[c] {
			out = append(out, helmProject(root, c, c))
		}
	}
	slices.SortFunc(out, func(a, b Project) int { return strings.Compare(a.Path, b.Path) })
	name(root, out)
	return out, len(t.kdirs), g, nil
}

// name gives each project a unique name: its DefaultName, with "-2",
// "-3"... added after the first.
func name(root string, ps []Project) {
	seen := map[string]bool{}
	for i := range ps {
		n := DefaultName(root, ps[i].Path)
		base := n
		for k := 2; seen[n]; k++ {
			n = fmt.Sprintf("%s-%d", base, k)
		}
		seen[n] = true
		ps[i].Name = n
	}
}

// DefaultName is the name Discover gives the project at path (relative to
// root, with "/"): path with "/" turned into "-", and for "." the base
// name of root ("root" when root is "/").
func DefaultName(root, path string) string {
	if path != "." {
		return strings.ReplaceAll(path, "/", "-")
	}
	if abs, err := filepath.Abs(root); err == nil && filepath.Base(abs) != string(filepath.Separator) {
		return filepath.Base(abs)
	}
	return "root"
}

// tree is what the walk found.
type tree struct {
	kdirs []string // directories holding a kustomization, in walk order
	// charts are the chart directories (holding Chart.yaml), never walked
	// into: their subcharts are theirs.
	charts []string
	files  []string // manifest file candidates (.yaml .yml .json)
	// entries are the candidates' directory entries, for holdsObject.
	entries map[string]fs.DirEntry
}

// walk lists kustomizations and manifest files under root, skipping what
// the loader skips.
func walk(root string, exclude []string) (*tree, error) {
	t := &tree{entries: map[string]fs.DirEntry{}}
	// Exclude globs are written against paths relative to the working
	// directory (the config's and --exclude's are resolved so).
	rel := func(p string) string {
		if filepath.IsAbs(p) {
			return config.RelToWD(p)
		}
		return p
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("walking %s: %w", path, err)
		}
		if path != root && loader.Excluded(rel(path), exclude) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if path != root && skipName(d.Name()) {
				return filepath.SkipDir
			}
			if isChart(path) {
				t.charts = append(t.charts, path)
				return filepath.SkipDir
			}
			if kustomizationFile(path) != "" {
				t.kdirs = append(t.kdirs, path)
			}
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") || slices.Contains(manifest.KustomizationNames(), d.Name()) || config.IsConfigName(d.Name()) {
			return nil
		}
		switch strings.ToLower(filepath.Ext(path)) {
		case ".yaml", ".yml", ".json":
			t.files = append(t.files, path)
			t.entries[path] = d
		}
		return nil
	})
	return t, err
}

// maxSniffBytes bounds the files holdsObject reads.
const maxSniffBytes = 8 << 20

// holdsObject reports, cheaply, whether a file may hold a Kubernetes
// object. Files the loader will refuse (links, FIFOs, huge files) count,
// so that it reports them.
func holdsObject(path string, d fs.DirEntry) bool {
	if !d.Type().IsRegular() {
		return true
	}
	fi, err := d.Info()
	if err != nil || fi.Size() > maxSniffBytes {
		return true
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return true
	}
	return manifest.MayHoldObject(data)
}

// errFound stops HasProjects's walk.
var errFound = errors.New("found")

// HasProjects reports whether a kustomization or a Helm chart lies
// under root, walking as Discover does but reading no file: a tree of
// plain manifests only is one set of files, anything else is split in
// projects. A root that is itself a chart has none: it is one chart.
func HasProjects(root string, opts Options) (bool, error) {
	if isChart(root) {
		return false, nil
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("walking %s: %w", path, err)
		}
		if !d.IsDir() {
			return nil
		}
		if path != root && (skipName(d.Name()) || loader.Excluded(path, opts.Exclude)) {
			return filepath.SkipDir
		}
		if kustomizationFile(path) != "" || path != root && isChart(path) {
			return errFound
		}
		return nil
	})
	if err == errFound {
		return true, nil
	}
	return false, err
}

// skipName is true for the directories the loader never walks into:
// dot-directories, node_modules and vendor (and charts, found apart).
func skipName(name string) bool {
	return strings.HasPrefix(name, ".") || name == "node_modules" || name == "vendor"
}
