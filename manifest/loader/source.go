package loader

import (
	"bytes"
	"context"
	"fmt"

	"github.com/kubeplan/kubeplan/internal/confine"
	"github.com/kubeplan/kubeplan/manifest"
)

// Source is one unit of input found by Collect: a file, standard input, or
// a kustomization directory. Lint streams over sources so that a large
// repository never has to be held in memory at once.
type Source struct {
	t    task
	data []byte // stdin content, read once by Collect
	dec  manifest.Decryption
	ctx  context.Context
}

// Path is the file or directory the source reads.
func (s *Source) Path() string { return s.t.path }

// Kustomize reports whether the source is a kustomization directory.
func (s *Source) Kustomize() bool { return s.t.kustomize }

// Chart reports whether the source is a Helm chart (a directory holding
// Chart.yaml or a packaged .tgz), rendered when loaded.
func (s *Source) Chart() bool { return s.t.chart }

// Collect expands paths into sources in a stable order, like Load, without
// parsing anything. Standard input is read here, once.
func Collect(paths []string, opts Options) ([]*Source, error) {
	var out []*Source
	for _, p := range paths {
		ts, err := collect(p, opts)
		if err != nil {
			return nil, err
		}
		for _, t := range ts {
			s := &Source{t: t, dec: opts.Decryption, ctx: opts.Context}
			if t.stdin {
				if opts.Stdin == nil {
					return nil, fmt.Errorf("reading standard input: no input stream")
				}
				data, err := confine.ReadLimited("standard input", opts.Stdin)
				if err != nil {
					return nil, err
				}
				s.data = data
			}
			out = append(out, s)
		}
	}
	return out, nil
}

// Load parses the source.
func (s *Source) Load() ([]*manifest.Object, []*manifest.Problem, error) {
	if s.t.stdin {
		if err := manifest.Stopped(s.ctx); err != nil {
			return nil, nil, err
		}
		o, p := manifest.ParseFileContext(s.ctx, "<stdin>", s.data, s.dec)
		return o, p, manifest.Stopped(s.ctx)
	}
	return runTask(s.t, Options{Decryption: s.dec, Context: s.ctx})
}

// MayHoldCRD reports, cheaply and without parsing, whether the source could
// contain a CustomResourceDefinition (kustomizations and stdin always may).
func (s *Source) MayHoldCRD() (bool, error) {
	if s.t.stdin || s.t.kustomize || s.t.chart {
		return true, nil
	}
	data, err := confine.ReadFile(s.t.path, s.t.root)
	if err != nil {
		return false, err
	}
	return bytes.Contains(data, []byte("CustomResourceDefinition")), nil
}
