package loader

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"golang.org/x/sync/errgroup"

	"github.com/kubeplan/kubeplan/internal/confine"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/helm"
	"github.com/kubeplan/kubeplan/manifest/kustomize"
)

// Options control what Load reads.
type Options struct {
	// Exclude holds glob patterns (with "**") of files and directories not
	// to read. A pattern without "/" also matches base names.
	Exclude []string
	// Stdin is read for the path "-".
	Stdin io.Reader
	// Concurrency is how many files are parsed at once (default: CPUs).
	Concurrency int
	// Root, when set, is the directory every file read must resolve
	// inside, symbolic links followed (the checkout of a git source). When
	// empty, an argument inside the checkout (confine.Checkout: the git
	// work tree holding the working directory) must resolve inside it,
	// links followed, so a "manifests/" the repository turned into a link
	// out of it is refused; a directory argument then confines the files
	// found under it, a file argument and a kustomization or chart are
	// confined to the checkout. An argument outside the checkout is the
	// workflow's choice: a directory is its own root, a file is read as
	// named, a kustomization is confined to the git work tree holding it
	// (else its own directory), so that its "../base" entries keep working.
	Root string
	// AllowRemote would let kustomizations fetch remote resources (git
	// repositories, http(s) files). kustomize gives no way to bound those
	// fetches in time or size, so they are refused either way; the field
	// only changes the message.
	AllowRemote bool
	// Helm says how a Helm chart among the paths is rendered (a directory
	// holding Chart.yaml, or a packaged .tgz): release, namespace, values.
	Helm helm.Options
	// Decryption says how SOPS-encrypted files are read: as in git (for
	// lint), or decrypted in memory (for plan and apply).
	Decryption manifest.Decryption
	// Context, when set, stops loading once it is done (SIGINT or SIGTERM,
	// a deadline): no file starts, a file's parse stops between documents,
	// and Load and Source.Load return its cause.
	Context context.Context
}

// Result is what Load found.
type Result struct {
	Objects  []*manifest.Object
	Problems []*manifest.Problem
	// Files counts the files (and kustomizations) read.
	Files int
}

// task is one unit of loading: a file, stdin, or a kustomization.
type task struct {
	path      string
	kustomize bool
	stdin     bool
	// chart is a Helm chart (directory or .tgz), rendered in-process
	// with helm.
	chart bool
	helm  helm.Options
	// root is the resolved directory the task's files must stay inside;
	// "" for a file argument read as named.
	root        string
	allowRemote bool
}

// Load reads every path: files, directories (recursively, .yaml .yml .json),
// "-" for standard input, and kustomize directories (built in-process).
// Objects come back in a stable order: paths in the order given, files in
// lexical order, documents in file order.
func Load(paths []string, opts Options) (*Result, error) {
	// Load keeps every object: it holds them to MaxLoadUnits.
	opts.Context = manifest.WithBudget(opts.context(), manifest.MaxLoadUnits)
	var tasks []task
	for _, p := range paths {
		ts, err := collect(p, opts)
		if err != nil {
			return nil, err
		}
		tasks = append(tasks, ts...)
	}
	type out struct {
		objs  []*manifest.Object
		probs []*manifest.Problem
		err   error
	}
	results := make([]out, len(tasks))
	n := opts.Concurrency
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	var g errgroup.Group
	g.SetLimit(n)
	for i := range tasks {
		g.Go(func() error {
			o, p, err := runTask(tasks[i], opts)
			results[i] = out{o, p, err}
			return nil
		})
	}
	_ = g.Wait() // every call returns nil: errors are kept per index
	res := &Result{Files: len(tasks)}
	for _, r := range results {
		if r.err != nil {
			return nil, r.err
		}
		res.Objects = append(res.Objects, r.objs...)
		res.Problems = append(res.Problems, r.probs...)
	}
	return res, nil
}

func runTask(t task, opts Options) ([]*manifest.Object, []*manifest.Problem, error) {
	ctx := opts.context()
	if err := manifest.Stopped(ctx); err != nil {
		return nil, nil, err
	}
	o, p, err := runTaskIn(ctx, t, opts)
	if err == nil {
		err = manifest.Stopped(ctx)
	}
	return o, p, err
}

func runTaskIn(ctx context.Context, t task, opts Options) ([]*manifest.Object, []*manifest.Problem, error) {
	o, p, err := runTaskRead(ctx, t, opts)
	if err != nil {
		return o, p, err
	}
	o, p = manifest.SopsObjects(o, p, opts.Decryption)
	return o, p, nil
}

// runTaskRead reads the objects of one task (see runTaskIn).
func runTaskRead(ctx context.Context, t task, opts Options) ([]*manifest.Object, []*manifest.Problem, error) {
	switch {
	case t.stdin:
		if opts.Stdin == nil {
			return nil, nil, errors.New("reading standard input: no input stream")
		}
		data, err := confine.ReadLimited("standard input", opts.Stdin)
		if err != nil {
			return nil, nil, err
		}
		o, p := manifest.ParseFileContext(ctx, "<stdin>", data, opts.Decryption)
		return o, p, nil
	case t.kustomize:
		o, p := kustomize.Build(t.path, t.root, t.allowRemote, opts.Decryption)
		return o, p, nil
	case t.chart:
		return helm.Render(ctx, t.path, t.root, t.helm)
	}
	data, err := confine.ReadFile(t.path, t.root)
	if err != nil {
		return nil, nil, err
	}
	o, p := manifest.ParseFileContext(ctx, t.path, data, opts.Decryption)
	return o, p, nil
}

// collect expands one user-given path into tasks, each with the root its
// files must resolve inside (see Options.Root).
func collect(p string, opts Options) ([]task, error) {
	if p == "-" {
		return []task{{path: "-", stdin: true}}, nil
	}
	fi, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", p, err)
	}
	root := ""
	if opts.Root != "" {
		if root, err = confine.RealDir(opts.Root); err != nil {
			return nil, fmt.Errorf("reading the root %s: %w", opts.Root, err)
		}
	}
	// An argument inside the checkout must resolve inside it: a
	// "manifests/" the pull request made a link to /etc is refused.
	argRoot := root
	if argRoot == "" {
		argRoot = confine.RootFor(p)
	}
	real, err := confine.Resolve(p, argRoot)
	if err != nil {
		return nil, err
	}
	exclude := opts.Exclude
	kust := func(dir, at string) task {
		return task{path: dir, kustomize: true, root: kustomizeRoot(argRoot, at), allowRemote: opts.AllowRemote}
	}
	chartTask := func(path, at string) task {
		return task{path: path, chart: true, root: kustomizeRoot(argRoot, at), helm: opts.Helm}
	}
	if !fi.IsDir() {
		if helm.IsChartArchive(p) {
			return []task{chartTask(p, filepath.Dir(real))}, nil
		}
		if filepath.Base(p) == "Chart.yaml" {
			return []task{chartTask(filepath.Dir(p), filepath.Dir(real))}, nil
		}
		for _, n := range manifest.KustomizationNames() {
			if filepath.Base(p) == n {
				// naming the kustomization file means its build
				return []task{kust(filepath.Dir(p), filepath.Dir(real))}, nil
			}
		}
		return []task{{path: p, root: argRoot}}, nil
	}
	dirRoot := root
	if dirRoot == "" {
		dirRoot = real
	}
	if kustomize.IsDir(p) {
		return []task{kust(p, real)}, nil
	}
	if manifest.FileExists(filepath.Join(p, "Chart.yaml")) {
		return []task{chartTask(p, real)}, nil
	}
	var tasks []task
	err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("walking %s: %w", path, err)
		}
		if path != p && excluded(path, exclude) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if path == p {
				return nil
			}
			name := d.Name()
			if strings.HasPrefix(name, ".") || name == "node_modules" || name == "vendor" {
				return filepath.SkipDir
			}
			if manifest.FileExists(filepath.Join(path, "Chart.yaml")) {
				// a Helm chart: rendered, its templates are not manifests
				tasks = append(tasks, chartTask(path, dirRoot))
				return filepath.SkipDir
			}
			if kustomize.IsDir(path) {
				tasks = append(tasks, kust(path, dirRoot))
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		if helm.IsChartArchive(path) {
			tasks = append(tasks, chartTask(path, dirRoot))
			return nil
		}
		switch strings.ToLower(filepath.Ext(path)) {
		case ".yaml", ".yml", ".json":
			tasks = append(tasks, task{path: path, root: dirRoot})
		}
		return nil
	})
	return tasks, err
}

func excluded(path string, patterns []string) bool {
	slash := filepath.ToSlash(filepath.Clean(path))
	base := filepath.Base(path)
	for _, pat := range patterns {
		pat = strings.TrimSuffix(filepath.ToSlash(pat), "/")
		if ok, _ := doublestar.Match(pat, slash); ok {
			return true
		}
		if !strings.Contains(pat, "/") {
			if ok, _ := doublestar.Match(pat, base); ok {
				return true
			}
		}
		if ok, _ := doublestar.Match(strings.TrimPrefix(pat, "./"), strings.TrimPrefix(slash, "./")); ok {
			return true
		}
	}
	return false
}

// kustomizeRoot is where a kustomization's or a chart's files must
// resolve: root when set (Options.Root, or the checkout holding the
// argument), else the git work tree holding argRoot, else the working
// directory when argRoot is inside it, else argRoot. An overlay's
// "../base" is then read, and nothing outside the repository is.
func kustomizeRoot(root, argRoot string) string {
	if root != "" {
		return root
	}
	if top := confine.RepoTop(argRoot); top != "" {
		return top
	}
	if wd, err := confine.RealDir("."); err == nil && confine.Inside(wd, argRoot) {
		return wd
	}
	return argRoot
}

// context is the run's context (context.Background when none was given).
func (o Options) context() context.Context {
	if o.Context == nil {
		return context.Background()
	}
	return o.Context
}
