package main

import (
	"reflect"
	"testing"
)

func TestSymbolPackage(t *testing.T) {
	for sym, want := range map[string]string{
		"k8s.io/api/core/v1.(*Pod).Marshal":                         "k8s.io/api/core/v1",
		"type:*helm.sh/helm/v4/pkg/chart/v2.Chart":                  "helm.sh/helm/v4/pkg/chart/v2",
		"go:itab.*archive/tar.Reader,io.Reader":                     "archive/tar",
		"go:itab.*k8s.io/client-go/rest.Request,io.Closer":          "k8s.io/client-go/rest",
		"runtime.mallocgc":                                          "runtime",
		"sync/atomic.(*Pointer[k8s.io/client-go/rest.Config]).Load": "sync/atomic",
		"k8s.io/utils/ptr.To[go.shape.int]":                         "k8s.io/utils/ptr",
		"github.com/google/cel-go/common/stdlib.init.0.func1":       "github.com/google/cel-go/common/stdlib",
		"sigs.k8s.io/kustomize/kyaml/openapi..gobytes.1":            "sigs.k8s.io/kustomize/kyaml/openapi",
		"go:func.*": "",
		"type:struct { F k8s.io/api/core/v1.Pod }": "",
		"type:map[string]int":                      "",
		"_cgo_init":                                "",
	} {
		if got := symbolPackage(sym); got != want {
			t.Errorf("symbolPackage(%q) = %q, want %q", sym, got, want)
		}
	}
}

func TestAttributeByGroupPrefix(t *testing.T) {
	syms := map[string]int64{
		"k8s.io/api/core/v1.(*Pod).Marshal":                  100,
		"k8s.io/apiserver/pkg/cel/library.init":              20,
		"github.com/google/cel-go/ext.(*mathLib).Compile":    3,
		"cel.dev/expr.(*Expr).Reset":                         4,
		"k8s.io/apimachinery/pkg/runtime.(*Scheme).New":      5,
		"k8s.io/client-go/rest.(*Request).Do":                7,
		"type:*helm.sh/helm/v4/pkg/engine.Engine":            11,
		"github.com/kubeplan/kubeplan/lint.Run":              13,
		"github.com/kubeplan/kubeplan/internal/kube.init":    17,
		"runtime.mallocgc":                                   19,
		"go:func.*":                                          23,
		"github.com/prometheus/client_golang/prometheus.New": 29,
		"github.com/prometheusx/other.F":                     31,
		"type:[]gopkg.in/yaml.v3.Node":                       37,
	}
	want := map[string]int64{
		"k8s.io/api types":            100,
		"apiserver CEL and admission": 27,
		"client-go":                   7,
		"helm":                        11,
		"prometheus":                  29,
		ownKubeplan:                   30,
		ownStd:                        19,
		ownNone:                       23,
		ownOther:                      5 + 31 + 37,
	}
	if got := attribute(syms, groups); !reflect.DeepEqual(got, want) {
		t.Errorf("attribute = %v,\nwant %v", got, want)
	}
}

func TestOwnPackagesWithoutGroup(t *testing.T) {
	ps := []pkg{
		{Path: module + "/cmd/kubeplan", Name: "main", Deps: []string{module + "/lint"}},
		{Path: module + "/lint", Name: "lint", Deps: []string{module + "/internal/kube", "k8s.io/client-go/rest"}},
		{Path: module + "/internal/kube", Name: "kube", Deps: []string{"k8s.io/client-go/rest"}},
		{Path: module + "/internal/yamlnode", Name: "yamlnode", Deps: []string{"gopkg.in/yaml.v3"}},
		{Path: "k8s.io/client-go/rest", Name: "rest"},
		{Path: "k8s.io/client-go/internal/x", Name: "x"},
		{Path: "k8s.io/client-goodies/y", Name: "y"},
	}
	all := ownPackages(ps, nil)
	if want := []string{module + "/lint", module + "/internal/kube", module + "/internal/yamlnode"}; !reflect.DeepEqual(all, want) {
		t.Errorf("ownPackages(all) = %v, want %v", all, want)
	}
	cg := groups[4]
	if got, want := ownPackages(ps, &cg), []string{module + "/internal/yamlnode"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ownPackages(without client-go) = %v, want %v", got, want)
	}
	if got, want := groupPackages(ps, cg), []string{"k8s.io/client-go/rest"}; !reflect.DeepEqual(got, want) {
		t.Errorf("groupPackages(client-go) = %v, want %v", got, want)
	}
}

func TestSlug(t *testing.T) {
	for name, want := range map[string]string{"apiserver CEL and admission": "apiserver-cel-and-admission", "k8s.io/api types": "k8s-io-api-types", "go-git": "go-git"} {
		if got := slug(name); got != want {
			t.Errorf("slug(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestByModuleTakesTheLongestModule(t *testing.T) {
	syms := map[string]int64{
		"sigs.k8s.io/kustomize/api/krusty.(*Kustomizer).Run": 5,
		"sigs.k8s.io/kustomize/kyaml/yaml.Parse":             7,
		"sigs.k8s.io/yaml.Unmarshal":                         11,
		"github.com/kubeplan/kubeplan/lint.Run":              13,
		"runtime.mallocgc":                                   17,
		"go:func.*":                                          19,
	}
	mods := []string{"sigs.k8s.io/yaml", "sigs.k8s.io/kustomize/kyaml", "sigs.k8s.io/kustomize/api", module}
	want := map[string]int64{"sigs.k8s.io/kustomize/api": 5, "sigs.k8s.io/kustomize/kyaml": 7, "sigs.k8s.io/yaml": 11, module: 13, ownStd: 17, ownNone: 19}
	if got := byModule(syms, mods); !reflect.DeepEqual(got, want) {
		t.Errorf("byModule = %v,\nwant %v", got, want)
	}
	for mod, want := range map[string]string{"sigs.k8s.io/kustomize/kyaml": "kustomize", "github.com/google/cel-go": "apiserver CEL and admission", "k8s.io/api": "k8s.io/api types", "k8s.io/apimachinery": "", "helm.sh/helm/v4": "helm", "github.com/go-git/go-git/v5": "go-git"} {
		if got := groupOf(mod, groups); got != want {
			t.Errorf("groupOf(%q) = %q, want %q", mod, got, want)
		}
	}
}
