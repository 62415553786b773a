package helm_test

import (
	"context"
	"testing"

	"github.com/kubeplan/kubeplan/manifest/helm"
)

// BenchmarkHelmRenderBench renders testdata/charts/bench, a chart that
// calls no generating function and no lookup: it renders once.
func BenchmarkHelmRenderBench(b *testing.B) {
	for b.Loop() {
		objs, _, err := helm.Render(context.Background(), "../../testdata/charts/bench", "", helm.Options{})
		if err != nil || len(objs) == 0 {
			b.Fatal(err)
		}
	}
}

// BenchmarkHelmRenderGenerated renders testdata/charts/database, which
// generates a password (two renders), with a lookup that finds its Secret
// and withheld data (three renders).
func BenchmarkHelmRenderGenerated(b *testing.B) {
	for _, bc := range []struct {
		name string
		h    helm.Options
	}{
		{"lint", helm.Options{}},
		{"plan", helm.Options{Lookup: dbLookup(), WithholdSecretData: true}},
		{"apply", helm.Options{Lookup: dbLookup()}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				objs, _, err := helm.Render(context.Background(), dbChart, "", bc.h)
				if err != nil || len(objs) == 0 {
					b.Fatal(err)
				}
			}
		})
	}
}
