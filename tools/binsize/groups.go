package main

import (
	"slices"
	"strings"
)

// group is a dependency whose cost is measured: the import path prefixes
// of its packages (a module path, or a package path and those below it).
type group struct {
	Name     string
	Prefixes []string
}

// groups are the dependencies of issue 33, item 3.
var groups = []group{
	{"helm", []string{"helm.sh/helm/v4"}},
	{"apiserver CEL and admission", []string{"k8s.io/apiserver", "github.com/google/cel-go", "cel.dev/expr"}},
	{"kustomize", []string{"sigs.k8s.io/kustomize"}},
	{"go-git", []string{"github.com/go-git"}},
	{"client-go", []string{"k8s.io/client-go"}},
	{"prometheus", []string{"github.com/prometheus"}},
	{"kubeconform and jsonschema", []string{"github.com/yannh/kubeconform", "github.com/santhosh-tekuri/jsonschema"}},
	{"k8s.io/api types", []string{"k8s.io/api"}},
}

// module is kubeplan's own module path.
const module = "github.com/kubeplan/kubeplan"

// under reports whether the import path pkg is prefix or lies below it
// (k8s.io/api holds k8s.io/api/core/v1, not k8s.io/apiserver).
func under(pkg, prefix string) bool {
	return pkg == prefix || strings.HasPrefix(pkg, prefix+"/")
}

// has reports whether the package pkg belongs to g.
func (g group) has(pkg string) bool {
	for _, p := range g.Prefixes {
		if under(pkg, p) {
			return true
		}
	}
	return false
}

// symbolPackage is the import path of the package a Go symbol of the
// linked binary belongs to ("" when it names none: go:func.*, a C
// symbol): the part before the first dot after the last slash, once the
// decorations of type and itab symbols are taken off.
// k8s.io/api/core/v1.(*Pod).Marshal is in k8s.io/api/core/v1,
// type:*helm.sh/helm/v4/pkg/chart.Chart in helm.sh/helm/v4/pkg/chart,
// runtime.mallocgc in runtime.
func symbolPackage(sym string) string {
	sym = strings.TrimPrefix(sym, "type:")
	sym = strings.TrimPrefix(sym, "go:itab.")
	sym = strings.TrimLeft(sym, "*[]0123456789")
	if strings.HasPrefix(sym, "go:") || strings.HasPrefix(sym, "map.") || strings.HasPrefix(sym, "noalg.") || sym == "" {
		return ""
	}
	// The package path ends at the first dot after its last slash; that
	// slash is before any '(' '[' or ',' (a method, an instance, an itab's
	// interface).
	head := sym
	if i := strings.IndexAny(head, "([,"); i >= 0 {
		head = head[:i]
	}
	if strings.Contains(head, " ") { // type:struct { ... }, type:func(...)
		return ""
	}
	slash := strings.LastIndex(head, "/")
	dot := strings.Index(sym[slash+1:], ".")
	if dot < 0 {
		return ""
	}
	return sym[:slash+1+dot]
}

// attribute sums sizes by owner: the name of the first group holding the
// symbol's package, else "kubeplan" for kubeplan's own packages, "Go
// standard library" for a path without a dot in its first element, "other
// modules", or ownNone (funcdata, hashed type names, C symbols).
func attribute(syms map[string]int64, gs []group) map[string]int64 {
	out := map[string]int64{}
	for name, size := range syms {
		out[owner(symbolPackage(name), gs)] += size
	}
	return out
}

// Owners that are not a group.
const (
	ownKubeplan = "kubeplan"
	ownStd      = "Go standard library"
	ownOther    = "other modules"
	ownNone     = "no package (funcdata, type names, C)"
)

func owner(pkg string, gs []group) string {
	switch {
	case pkg == "":
		return ownNone
	case under(pkg, module):
		return ownKubeplan
	}
	for _, g := range gs {
		if g.has(pkg) {
			return g.Name
		}
	}
	first, _, _ := strings.Cut(pkg, "/")
	if !strings.Contains(first, ".") {
		return ownStd
	}
	return ownOther
}

// byModule sums sizes by the module of the symbol's package (the longest
// of mods holding it), the standard library and symbols of no package
// under the owners of attribute.
func byModule(syms map[string]int64, mods []string) map[string]int64 {
	out := map[string]int64{}
	for name, size := range syms {
		pkg := symbolPackage(name)
		best := ""
		for _, m := range mods {
			if under(pkg, m) && len(m) > len(best) {
				best = m
			}
		}
		if best == "" {
			best = owner(pkg, nil)
		}
		out[best] += size
	}
	return out
}

// groupOf is the name of the group holding the module path mod, or "".
func groupOf(mod string, gs []group) string {
	for _, g := range gs {
		if g.has(mod) || slices.ContainsFunc(g.Prefixes, func(p string) bool { return under(p, mod) }) {
			return g.Name
		}
	}
	return ""
}
