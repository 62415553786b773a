package project

import (
	"strings"
	"testing"
)

func TestDependencies(t *testing.T) {
	all := []Project{
		{Name: "crds"},
		{Name: "namespaces"},
		{Name: "operator", DependsOn: []string{"crds", "namespaces"}},
		{Name: "app", DependsOn: []string{"operator", "namespaces", "not-here"}},
		{Name: "loop-a", DependsOn: []string{"loop-b"}},
		{Name: "loop-b", DependsOn: []string{"loop-a"}},
	}
	names := func(ps []Project) string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Name)
		}
		return strings.Join(out, " ")
	}
	if got := names(Dependencies(all, all[3])); got != "operator namespaces crds" {
		t.Errorf("app: %q", got)
	}
	if got := names(Dependencies(all, all[0])); got != "" {
		t.Errorf("crds: %q", got)
	}
	if got := names(Dependencies(all, all[4])); got != "loop-b" {
		t.Errorf("a cycle: %q", got)
	}
}
