package project

import (
	"cmp"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/kubeplan/kubeplan/internal/config"
)

// member is a project with the config entry it came from (nil for one
// that no entry names: discovered, without projects: in the config).
type member struct {
	Project
	entry *config.Entry
	index int // of entry in cfg.Projects
}

// Load returns the projects under root with their settings resolved,
// sorted by path, then name: the discovered ones when cfg declares no
// projects (minus its ignore globs), else exactly those its projects:
// entries name, a literal path each or the discovered projects a glob
// matches, the first entry that matches a project winning, except that a
// later literal entry with a name of its own makes another project of the
// same path (a chart deployed twice). Settings come from the project's
// entry, then cfg.Defaults, then the built-ins (see resolve).
//
// Paths in cfg are relative to cfg.Dir, and projects are found from there,
// so that names do not depend on root; the projects outside root are then
// dropped and the others' Path and Files made relative to root. When root
// is not inside cfg.Dir (or there is no config file) cfg does not apply:
// Discover's projects under root are listed with the built-in settings. Errors in
// the config (an entry that is no project, an unknown dependsOn, a cycle,
// two projects with one name or one ApplySet) name file:line:col.
func Load(root string, cfg *config.Config, opts Options) ([]Project, error) {
	if cfg == nil {
		cfg = &config.Config{}
	}
	rootAbs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	base := root
	declared := cfg.Dir != "" && inTree(cfg.Dir, rootAbs)
	if declared {
		base = config.RelToWD(cfg.Dir)
	} else {
		cfg = &config.Config{} // the config is not root's
	}
	if declared {
		// What ignore names is not read at all: a kustomization there
		// neither is a project nor makes the ones it uses bases.
		opts.Exclude = slices.Concat(opts.Exclude, cfg.IgnorePatterns())
	}
	found, _, g, err := find(base, opts)
	if err != nil {
		return nil, err
	}
	namespaces := g.namespaces()
	var ms []member
	if declared {
		if ms, err = declaredProjects(base, cfg, found, opts); err != nil {
			return nil, err
		}
	} else {
		for _, p := range found {
			ms = append(ms, member{Project: p})
		}
	}
	for i := range ms {
		if err := resolve(base, cfg, &ms[i], namespaces); err != nil {
			return nil, err
		}
	}
	ownValues(ms)
	if err := check(cfg, ms); err != nil {
		return nil, err
	}
	baseAbs, err := filepath.Abs(base)
	if err != nil {
		return nil, err
	}
	out := underRoot(baseAbs, rootAbs, ms)
	slices.SortFunc(out, func(a, b Project) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.Name, b.Name))
	})
	return out, nil
}

// declaredProjects applies cfg's ignore and projects: to the projects
// found under base (cfg.Dir).
func declaredProjects(base string, cfg *config.Config, found []Project, opts Options) ([]member, error) {
	var kept []Project
	for _, p := range found {
		if !matchesAny(cfg.Ignore, p.Path) {
			kept = append(kept, p)
		}
	}
	if cfg.Projects == nil {
		ms := make([]member, len(kept))
		for i, p := range kept {
			ms[i] = member{Project: p}
		}
		return ms, nil
	}
	claimed, literal := map[string]bool{}, map[string]bool{}
	var ms []member
	repo := config.RepoRoot(cfg.Dir)
	for i := range cfg.Projects {
		e := &cfg.Projects[i]
		if e.Glob() {
			pat := path.Clean(filepath.ToSlash(e.Path))
			for _, p := range kept {
				if ok, _ := doublestar.Match(pat, p.Path); ok && !claimed[p.Path] {
					claimed[p.Path] = true
					ms = append(ms, member{Project: p, entry: e, index: i})
				}
			}
			continue
		}
		dir := filepath.Join(cfg.Dir, filepath.FromSlash(e.Path))
		where := fmt.Sprintf("%s: projects[%d].path %s", cfg.At(e.Pos["path"]), i, e.Path)
		if !inTree(repo, dir) || !realInTree(repo, dir) {
			return nil, fmt.Errorf("%s: outside the repository %s", where, repo)
		}
		if !inTree(cfg.Dir, dir) {
			return nil, fmt.Errorf("%s: outside %s, the directory of %s", where, cfg.Dir, cfg.File)
		}
		p, err := entryProject(base, cfg, e, opts)
		if err != nil {
			return nil, fmt.Errorf("%s: not a project: %w", where, err)
		}
		// One path is one project, but for entries that name theirs: a
		// chart deployed twice with other values (shop-dev, shop-prod).
		if claimed[p.Path] && (e.Name == "" || !literal[p.Path]) {
			continue
		}
		claimed[p.Path], literal[p.Path] = true, true
		if e.Name != "" {
			p.Name = e.Name
		}
		ms = append(ms, member{Project: p, entry: e, index: i})
	}
	return ms, nil
}

// realInTree reports whether dir, symbolic links followed, is in repo's
// tree (also followed); a dir that does not resolve is At's to report.
func realInTree(repo, dir string) bool {
	rd, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return true
	}
	if rr, err := filepath.EvalSymlinks(repo); err == nil {
		repo = rr
	}
	return inTree(repo, rd)
}

// matchesAny reports whether p (relative, with "/") or one of its parent
// directories matches one of the globs.
func matchesAny(globs []string, p string) bool {
	for _, g := range globs {
		g = path.Clean(filepath.ToSlash(g))
		for d := p; ; d = path.Dir(d) {
			if ok, _ := doublestar.Match(g, d); ok {
				return true
			}
			if d == "." || d == "/" || !strings.Contains(d, "/") {
				break
			}
		}
	}
	return false
}

// underRoot keeps the projects whose directory is root or below it, with
// Path and Files made relative to root (they are relative to base).
func underRoot(baseAbs, rootAbs string, ms []member) []Project {
	var out []Project
	for _, m := range ms {
		p := m.Project
		if baseAbs == rootAbs {
			out = append(out, p)
			continue
		}
		dir := filepath.Join(baseAbs, filepath.FromSlash(p.Path))
		if !inTree(rootAbs, dir) {
			continue
		}
		p.Path = relSlash(rootAbs, dir)
		rebase := func(fs []string) []string {
			out := make([]string, len(fs))
			for i, f := range fs {
				out[i] = relSlash(rootAbs, filepath.Join(baseAbs, filepath.FromSlash(f)))
			}
			return out
		}
		p.Files = rebase(p.Files)
		slices.Sort(p.Files)
		if p.Helm != nil {
			h := *p.Helm
			h.Chart = rebase([]string{h.Chart})[0]
			h.Values = rebase(h.Values)
			p.Helm = &h
		}
		out = append(out, p)
	}
	return out
}

// relSlash is p relative to dir, with "/".
func relSlash(dir, p string) string {
	r, err := filepath.Rel(dir, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(r)
}
