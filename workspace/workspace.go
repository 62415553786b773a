package workspace

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"sync"

	"github.com/kubeplan/kubeplan/internal/config"
	"github.com/kubeplan/kubeplan/lint"
	"github.com/kubeplan/kubeplan/project"
)

// Options say where a workspace is and what the command line overrides.
type Options struct {
	// Overrides are the command line's settings, applied over
	// kubeplan.yaml's.
	Overrides Overrides
	// From is where the search for kubeplan.yaml starts ("" for the
	// working directory); ignored with Overrides.ConfigFile.
	From string
	// Root is the directory the projects are found under, their Path and
	// Files relative to it ("" for the working directory).
	Root string
	// Checkout is the root of the git checkout the files come from
	// (--source, serve): files are read only inside it and named relative
	// to it. "" for local paths, each its own root.
	Checkout string
	// Stdin is what the path "-" reads (nil: none).
	Stdin io.Reader
	// Context bounds loading, lint and policies (nil: none).
	Context context.Context
	// Legacy, when set, is told that the config read has the former name
	// (.kubeplan.yaml), to say so once.
	Legacy func()
}

// Workspace is an opened kubeplan.yaml with the command line's overrides:
// the settings of every set and project read from it.
type Workspace struct {
	// Config is the config read (empty when there is none).
	Config *config.Config
	o      Options
	// all are the projects, once loaded (Projects; projects of one run
	// ask for them at once).
	allMu  sync.Mutex
	all    []project.Project
	loaded bool
	// single are the paths of a plain invocation's project (Single).
	single   []string
	isSingle bool

	baseOnce sync.Once
	baseIn   lint.Input
	baseOpts lint.Options
	baseErr  error

	// guards are compiled once per workspace (see Guards).
	guards guards
}

// Open reads the config (Overrides.ConfigFile, else the kubeplan.yaml
// found walking up from From to the repository root) and compiles its
// guards: a rule that does not compile fails it, at the rule's
// file:line:col. It is read at each Open: a loop that opens its
// workspace at each run sees edits.
func Open(o Options) (*Workspace, error) {
	var cfg *config.Config
	var err error
	if o.Overrides.ConfigFile != "" {
		cfg, err = config.Load(o.Overrides.ConfigFile, true)
	} else {
		cfg, err = config.Discover(cmpOr(o.From, "."))
	}
	if err != nil {
		return nil, err
	}
	if cfg.Legacy && o.Legacy != nil {
		o.Legacy()
	}
	w := New(cfg, o)
	if w.guards.err != nil {
		return nil, w.guards.err
	}
	return w, nil
}

// New is the workspace of a config already read. Its guards (and the
// defaults' windows) are compiled here; an error fails Projects (Open
// fails with it).
func New(cfg *config.Config, o Options) *Workspace {
	if cfg == nil {
		cfg = &config.Config{}
	}
	return newWith(cfg, o, compileGuards(cfg))
}

// newWith is New with the guards compiled.
func newWith(cfg *config.Config, o Options, g guards) *Workspace {
	if o.Context == nil {
		o.Context = context.Background()
	}
	return &Workspace{Config: cfg, o: o, guards: g}
}

// WithRoot is the workspace with its projects found under root instead
// (its guards shared).
func (w *Workspace) WithRoot(root string) *Workspace {
	o := w.o
	o.Root = root
	return newWith(w.Config, o, w.guards)
}

// Root is the directory the projects' paths are relative to.
func (w *Workspace) Root() string { return cmpOr(w.o.Root, ".") }

// Checkout is the root of the git checkout the files come from ("" for
// local paths).
func (w *Workspace) Checkout() string { return w.o.Checkout }

// Overrides are the command line's settings the workspace applies.
func (w *Workspace) Overrides() Overrides { return w.o.Overrides }

// ConfigFile is the config file's path, or the one there would be
// (kubeplan.yaml): a pull-request comment's scope names it.
func (w *Workspace) ConfigFile() string {
	return cmpOr(w.Config.File, config.DefaultFile)
}

// RelativeTo names files relative to root, so findings read
// "manifests/deployment.yaml:6:13" rather than a path in the git cache;
// nil when root is "".
func RelativeTo(root string) func(string) string {
	if root == "" {
		return nil
	}
	return func(p string) string {
		if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
			return r
		}
		return p
	}
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
