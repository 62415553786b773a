package main

import (
	"flag"
	"os"
	"path/filepath"
	"slices"

	"github.com/kubeplan/kubeplan/internal/benchkit"
)

const sectionTitle = "## size: what each dependency adds to the binary"

func main() { benchkit.Main("binsize", run) }

// measured is one group's row.
type measured struct {
	g                group
	linked           int   // its packages kubeplan links
	share            int64 // bytes of its symbols in bin/kubeplan
	dropped          int   // kubeplan packages that depend on it
	without          int64 // bytes of the build of the others
	withoutNoCgo     int64 // the same, CGO_ENABLED=0
	only, onlyRSSKiB int64
}

func run(args []string) error {
	fs := flag.NewFlagSet("binsize", flag.ContinueOnError)
	runs := fs.Int("runs", 3, "reads of each binary's start RSS (the median is shown)")
	var doc string
	benchkit.DocFlag(fs, &doc, sectionTitle)
	root, err := benchkit.Start(fs, args, runs)
	if err != nil {
		return err
	}
	step("go list -deps ./cmd/kubeplan")
	ps, err := linked(root)
	if err != nil {
		return err
	}
	step("building bin/kubeplan")
	kpBin, err := benchkit.BuildKubeplan(root)
	if err != nil {
		return err
	}
	img, err := readImage(kpBin)
	if err != nil {
		return err
	}
	shares := attribute(img.Symbols, groups)
	mods := byModule(img.Symbols, modules(ps))
	dir := filepath.Join(root, ".bench", "size")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	kpRSS, err := startRSS(kpBin, []string{"lint", "-"}, root, *runs)
	if err != nil {
		return err
	}

	step("building bin/kubeplan with CGO_ENABLED=0 (.bench/size/kubeplan-nocgo)")
	noCgoBin := filepath.Join(dir, "kubeplan-nocgo")
	if err := benchkit.Go(root, noCgo, "build", "-o", noCgoBin, "./cmd/kubeplan"); err != nil {
		return err
	}
	noCgoRSS, err := startRSS(noCgoBin, []string{"lint", "-"}, root, *runs)
	if err != nil {
		return err
	}

	own := ownPackages(ps, nil)
	api, err := exportedAPI(ps, own)
	if err != nil {
		return err
	}
	step("building all %d kubeplan packages, their exported functions and types kept", len(own))
	allBin, err := buildMain(root, "all", api.of(own), nil)
	if err != nil {
		return err
	}
	allNoCgoBin, err := buildMain(root, "all-nocgo", api.of(own), noCgo)
	if err != nil {
		return err
	}
	emptyBin, err := buildMain(root, "empty", nil, nil)
	if err != nil {
		return err
	}
	allRSS, err := startRSS(allBin, nil, dir, *runs)
	if err != nil {
		return err
	}
	emptyRSS, err := startRSS(emptyBin, nil, dir, *runs)
	if err != nil {
		return err
	}

	var rows []measured
	for _, g := range groups {
		m := measured{g: g, share: shares[g.Name]}
		mine := groupPackages(ps, g)
		m.linked = len(mine)
		keep := ownPackages(ps, &g)
		m.dropped = len(own) - len(keep)
		step("%s: without it (%d of %d kubeplan packages), only it (%d packages)", g.Name, len(keep), len(own), len(mine))
		bin, err := buildMain(root, "without-"+slug(g.Name), api.of(keep), nil)
		if err != nil {
			return err
		}
		m.without = fileSize(bin)
		if bin, err = buildMain(root, "without-"+slug(g.Name)+"-nocgo", api.of(keep), noCgo); err != nil {
			return err
		}
		m.withoutNoCgo = fileSize(bin)
		if bin, err = buildMain(root, "only-"+slug(g.Name), blank(mine), nil); err != nil {
			return err
		}
		m.only = fileSize(bin)
		if m.onlyRSSKiB, err = startRSS(bin, nil, dir, *runs); err != nil {
			return err
		}
		rows = append(rows, m)
	}
	sizes := buildSizes{real: fileSize(kpBin), realRSSKiB: kpRSS, all: fileSize(allBin), allRSSKiB: allRSS, empty: fileSize(emptyBin), emptyRSSKiB: emptyRSS,
		realNoCgo: fileSize(noCgoBin), realNoCgoRSSKiB: noCgoRSS, allNoCgo: fileSize(allNoCgoBin)}
	md := report(rows, shares, mods, img, sizes, importers(ps, "plugin"), len(own), *runs, benchkit.DescribeMachine(root))
	return benchkit.Publish(root, doc, sectionTitle, md, step)
}

// refs is what a generated main refers to of each kubeplan package.
type refs map[string][]string

// exportedAPI reads the exported functions and types of the packages
// paths of ps.
func exportedAPI(ps []pkg, paths []string) (refs, error) {
	out := refs{}
	for _, p := range ps {
		if slices.Contains(paths, p.Path) {
			r, err := exported(p.Dir, p.GoFiles)
			if err != nil {
				return nil, err
			}
			out[p.Path] = r
		}
	}
	return out, nil
}

// of is paths as uses, with their refs.
func (r refs) of(paths []string) []use {
	out := make([]use, len(paths))
	for i, p := range paths {
		out[i] = use{Path: p, Refs: r[p]}
	}
	return out
}

// buildSizes are the sizes (bytes) and start RSS (KiB) of the builds every
// row is read against.
type buildSizes struct {
	real, all, empty                   int64
	realRSSKiB, allRSSKiB, emptyRSSKiB int64
	// bin/kubeplan and all built with CGO_ENABLED=0, as released
	realNoCgo, realNoCgoRSSKiB, allNoCgo int64
}

// noCgo is the environment of a build as goreleaser and make image do it.
var noCgo = []string{"CGO_ENABLED=0"}

// step prints a progress line.
var step = benchkit.Stepper("binsize")
