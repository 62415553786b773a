package main

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"time"

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
	dir := filepath.Join(root, ".bench", "size")
	kpRSS, err := startRSS(kpBin, []string{"lint", "-"}, root, *runs)
	if err != nil {
		return err
	}

	own := ownPackages(ps, nil)
	step("building all %d kubeplan packages, blank-imported", len(own))
	allBin, err := buildMain(root, "all", own)
	if err != nil {
		return err
	}
	emptyBin, err := buildMain(root, "empty", nil)
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
		bin, err := buildMain(root, "without-"+slug(g.Name), keep)
		if err != nil {
			return err
		}
		m.without = fileSize(bin)
		if bin, err = buildMain(root, "only-"+slug(g.Name), mine); err != nil {
			return err
		}
		m.only = fileSize(bin)
		if m.onlyRSSKiB, err = startRSS(bin, nil, dir, *runs); err != nil {
			return err
		}
		rows = append(rows, m)
	}
	sizes := buildSizes{real: fileSize(kpBin), realRSSKiB: kpRSS, all: fileSize(allBin), allRSSKiB: allRSS, empty: fileSize(emptyBin), emptyRSSKiB: emptyRSS}
	md := report(rows, shares, img, sizes, len(own), *runs, benchkit.DescribeMachine(root))
	return benchkit.Publish(root, doc, sectionTitle, md, step)
}

// buildSizes are the sizes (bytes) and start RSS (KiB) of the builds every
// row is read against.
type buildSizes struct {
	real, all, empty                   int64
	realRSSKiB, allRSSKiB, emptyRSSKiB int64
}

func report(rows []measured, shares map[string]int64, img image, s buildSizes, ownCount, runs int, m benchkit.Machine) string {
	var symTotal int64
	for _, v := range img.Symbols {
		symTotal += v
	}
	var md strings.Builder
	fmt.Fprintf(&md, "%s\n\n", sectionTitle)
	md.WriteString("Command: `make bench-size` (`go run ./tools/binsize`; add `-doc docs/benchmarks.md` to rewrite this section).\n\n")
	fmt.Fprintf(&md, "bin/kubeplan is **%s**; it starts (`kubeplan lint -` waiting on its input) at %s resident. Per dependency:\n\n", mib(s.real), kibMiB(s.realRSSKiB))
	md.WriteString("| dependency | packages linked | its symbols in bin/kubeplan | kubeplan packages on it | all − without it | only it: binary | only it: start RSS |\n|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&md, "| %s | %d | **%s** (%.0f%%) | %d of %d | %s | %s | %s |\n", r.g.Name, r.linked, mib(r.share),
			100*benchkit.Div(float64(r.share), float64(symTotal)), r.dropped, ownCount, mib(s.all-r.without), mib(r.only), kibMiB(r.onlyRSSKiB))
	}
	fmt.Fprintf(&md, "| (an empty main: the Go runtime) | 0 | | | | %s | %s |\n\n", mib(s.empty), kibMiB(s.emptyRSSKiB))

	var rest []string
	for _, o := range []string{ownKubeplan, ownStd, ownOther, ownNone} {
		rest = append(rest, fmt.Sprintf("%s %s", o, mib(shares[o])))
	}
	fmt.Fprintf(&md, "The rest of bin/kubeplan's %s of symbols: %s. Its file by section: text %s, read-only data %s, pclntab %s,\n",
		mib(symTotal), strings.Join(rest, ", "), mib(img.Sections["text"]), mib(img.Sections["rodata"]), mib(img.Sections["pclntab"]))
	fmt.Fprintf(&md, "data %s, DWARF %s, other (symbol table, ...) %s.\n\n", mib(img.Sections["data"]), mib(img.Sections["DWARF"]), mib(img.Sections["other"]))

	md.WriteString(`How it is measured, in one run:
- **Its symbols in bin/kubeplan**: the sizes of the ELF symbols of the real binary (text, read-only data, data; as
  ` + "`go tool nm -size`" + ` lists them) summed by the import path of their package (a type's or itab's by the
  type's package). This is the group's own code; the per-function line tables (pclntab) and DWARF, about as big
  again, are not in it, nor what the group pulls in from other modules.
- **All − without it**: a generated main blank-importing every kubeplan package that cmd/kubeplan links (` + "`all`" + `),
  and one blank-importing those that do not depend on the group, even transitively (` + "`without-NAME`" + `, under
  .bench/size/); the difference is the group and all that only it and the kubeplan packages on it need.
- **Only it**: a main blank-importing the group's packages that kubeplan links, alone; its RSS once started and
  waiting on its input (/proc/PID/smaps_rollup, the median of ` + fmt.Sprint(runs) + ` reads), as in the "## start:" section.

`)
	fmt.Fprintf(&md, "The blank-import builds link what the packages' initialisation reaches, not what kubeplan's commands call: `all` is\n")
	fmt.Fprintf(&md, "%s against bin/kubeplan's %s (%s of code reachable only from the commands), and its start RSS %s. So\n",
		mib(s.all), mib(s.real), mib(s.real-s.all), kibMiB(s.allRSSKiB))
	md.WriteString(`"all − without it" is a floor of what building without a group would save, and it is blurred where most of kubeplan
depends on the group (client-go, the k8s.io/api types: dropping them drops nearly every kubeplan package). A build of
kubeplan itself without a group does not exist (the commands call the groups directly); the symbol share is the
figure to track when a dependency is added, "only it" what linking it alone costs.

`)
	fmt.Fprintf(&md, "Machine: %d CPUs (%s), %s, %s; %s; kubeplan at %s.\n", m.NumCPU, m.CPUModel, m.MemTotal, m.GoVersion, time.Now().UTC().Format("2006-01-02"), m.Commit)
	return md.String()
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

func kibMiB(kib int64) string { return fmt.Sprintf("%.0f MiB", float64(kib)/1024) }

// step prints a progress line.
var step = benchkit.Stepper("binsize")
