package main

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kubeplan/kubeplan/internal/benchkit"
)

// report is the section of docs/benchmarks.md: the table of groups, the
// rest of bin/kubeplan, the largest modules and the method.
func report(rows []measured, shares, mods map[string]int64, img image, s buildSizes, pluginUsers []string, ownCount, runs int, m benchkit.Machine) string {
	var symTotal int64
	for _, v := range img.Symbols {
		symTotal += v
	}
	var md strings.Builder
	fmt.Fprintf(&md, "%s\n\n", sectionTitle)
	md.WriteString("Command: `make bench-size` (`go run ./tools/binsize`; add `-doc docs/benchmarks.md` to rewrite this section).\n\n")
	fmt.Fprintf(&md, "bin/kubeplan is **%s**; it starts (`kubeplan lint -` waiting on its input) at %s resident. Per dependency:\n\n", mib(s.real), kibMiB(s.realRSSKiB))
	md.WriteString("| dependency | packages linked | kubeplan packages on it | all − without it | the same, CGO_ENABLED=0 | its symbols in bin/kubeplan | only it: binary | only it: start RSS |\n|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&md, "| %s | %d | %d of %d | **%s** (%.0f%%) | %s (%.0f%%) | %s (%.0f%%) | %s | %s |\n", r.g.Name, r.linked, r.dropped, ownCount,
			mib(s.all-r.without), 100*benchkit.Div(float64(s.all-r.without), float64(s.all)),
			mib(s.allNoCgo-r.withoutNoCgo), 100*benchkit.Div(float64(s.allNoCgo-r.withoutNoCgo), float64(s.allNoCgo)),
			mib(r.share), 100*benchkit.Div(float64(r.share), float64(symTotal)), mib(r.only), kibMiB(r.onlyRSSKiB))
	}
	fmt.Fprintf(&md, "| (an empty main: the Go runtime) | | | | | | %s | %s |\n\n", mib(s.empty), kibMiB(s.emptyRSSKiB))

	var rest []string
	for _, o := range []string{ownKubeplan, ownStd, ownOther, ownNone} {
		rest = append(rest, fmt.Sprintf("%s %s", o, mib(shares[o])))
	}
	fmt.Fprintf(&md, "The rest of bin/kubeplan's %s of symbols: %s.\n", mib(symTotal), strings.Join(rest, ", "))
	fmt.Fprintf(&md, "Its file by section: text %s, read-only data %s, pclntab %s, ", mib(img.Sections["text"]), mib(img.Sections["rodata"]), mib(img.Sections["pclntab"]))
	fmt.Fprintf(&md, "data %s, DWARF %s, symbol table %s, dynamic symbol table %s, other %s. A release build (linked `-s -w`, as goreleaser\n",
		mib(img.Sections["data"]), mib(img.Sections["DWARF"]), mib(img.Sections["symtab"]), mib(img.Sections["dynsym"]), mib(img.Sections["other"]))
	fmt.Fprintf(&md, "and `make image` do) leaves out the DWARF and the symbol table, %s; not the dynamic symbol table.\n\n", mib(img.Sections["DWARF"]+img.Sections["symtab"]))
	md.WriteString(cgoNote(s, img, pluginUsers))
	md.WriteString(moduleTable(mods, topModules))

	md.WriteString(`How it is measured, in one run (the builds are under .bench/size/):
- **All − without it**: no build of kubeplan without a dependency exists (its commands call them), so two mains are
  generated and built alike. ` + "`all`" + ` imports every library package of kubeplan that cmd/kubeplan links and refers to
  each exported function and type of them, so that the linker keeps what a command could call (blank imports alone
  keep only what the packages' initialisation reaches: about 90 MiB on 2026-12-02). ` + "`without-NAME`" + ` does the same
  for the packages that do not depend on the group, even transitively. The difference is the group together with the
  kubeplan packages built on it and all that only they need, so groups that the same kubeplan packages depend on show
  the same figure, and client-go and the k8s.io/api types, which most of kubeplan is built on, nearly the whole binary.
  The next column is the same two builds with ` + "`CGO_ENABLED=0`" + ` (` + "`all-nocgo`, `without-NAME-nocgo`" + `), as kubeplan is released.
- **Its symbols in bin/kubeplan**: the sizes of the ELF symbols of the real binary (text, read-only data, data; what
  ` + "`go tool nm -size`" + ` lists, each alias once) summed by the import path of their package (a type's or itab's by
  the type's package); the share is of all symbols. This is the group's own code only: not the modules it pulls in,
  nor its line tables (pclntab) and DWARF.
- **Only it**: a main blank-importing the group's packages that kubeplan links, alone: what linking it costs, and its
  RSS once started and waiting on its input (/proc/PID/smaps_rollup, the median of ` + fmt.Sprint(runs) + ` reads), as in the
  "## start:" section.

`)
	fmt.Fprintf(&md, "`all` is %s against bin/kubeplan's %s, and starts at %s resident against kubeplan's %s; `all-nocgo` is %s against\n", mib(s.all), mib(s.real), kibMiB(s.allRSSKiB), kibMiB(s.realRSSKiB), mib(s.allNoCgo))
	fmt.Fprintf(&md, "%s: the generated builds link what kubeplan links. When a dependency is added, rerun this: its \"all − without it\"\n", mib(s.realNoCgo))
	md.WriteString("is what it costs.\n\n")
	fmt.Fprintf(&md, "Machine: %d CPUs (%s), %s, %s; %s; kubeplan at %s.\n", m.NumCPU, m.CPUModel, m.MemTotal, m.GoVersion, time.Now().UTC().Format("2006-01-02"), m.Commit)
	return md.String()
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

func kibMiB(kib int64) string { return fmt.Sprintf("%.0f MiB", float64(kib)/1024) }

// cgoNote says what linking Go's plugin package costs a cgo build, and
// who imports it.
func cgoNote(s buildSizes, img image, pluginUsers []string) string {
	var md strings.Builder
	fmt.Fprintf(&md, "**With and without cgo.** bin/kubeplan as `go build` makes it here (cgo on) is %s and starts at %s; built with\n", mib(s.real), kibMiB(s.realRSSKiB))
	fmt.Fprintf(&md, "`CGO_ENABLED=0`, as goreleaser and `make image` build it, it is **%s** and starts at **%s**.", mib(s.realNoCgo), kibMiB(s.realNoCgoRSSKiB))
	if len(pluginUsers) == 0 {
		md.WriteString("\n\n")
		return md.String()
	}
	fmt.Fprintf(&md, " Most of the difference is\nGo's `plugin` package, which %s imports: in a cgo build the linker then\n", "`"+strings.Join(pluginUsers, "`, `")+"`")
	md.WriteString("links the program as one that may load plugins, keeps every method of every type it links, and exports every\n")
	fmt.Fprintf(&md, "symbol in the dynamic symbol table (%s here). Without cgo the package cannot load plugins and costs nothing.\n\n", mib(img.Sections["dynsym"]))
	return md.String()
}

// topModules is how many modules moduleTable lists.
const topModules = 15

// moduleTable lists the n largest owners of mods (by their symbols in
// bin/kubeplan), each with the group it is in.
func moduleTable(mods map[string]int64, n int) string {
	names := make([]string, 0, len(mods))
	for m := range mods {
		names = append(names, m)
	}
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(mods[b], mods[a]), strings.Compare(a, b))
	})
	var md strings.Builder
	fmt.Fprintf(&md, "The %d largest modules of bin/kubeplan by their own symbols (of %d):\n\n| module | symbols | dependency |\n|---|---|---|\n", min(n, len(names)), len(names))
	for _, m := range names[:min(n, len(names))] {
		fmt.Fprintf(&md, "| %s | %s | %s |\n", m, mib(mods[m]), groupOf(m, groups))
	}
	md.WriteString("\n")
	return md.String()
}
