package kustomize

import (
	"fmt"

	"github.com/kubeplan/kubeplan/internal/sops"
	"github.com/kubeplan/kubeplan/manifest"
)

// buildProblems reports a failed kustomize build: the SOPS files that did
// not decrypt, at their own positions, when that is why; else the build's
// error, with every decrypted value hidden (kustomize quotes the line of
// an envs: file it cannot parse, which may be a decrypted one).
func (f *rootFS) buildProblems(kfile string, err error) []*manifest.Problem {
	for _, p := range f.sopsProblems {
		if p.Rule == manifest.RuleSOPSDecrypt {
			return f.sopsProblems
		}
	}
	return scrubProblems([]*manifest.Problem{kustomizeProblem(kfile, f, err)})
}

// markEncrypted marks the objects built from SOPS-encrypted files (see
// Object.Encrypted) and adds the problems those files raised. An object
// holding a decrypted value anywhere (a replacement copied it, a
// configMapGenerator read the file, a patch changed the Secret's kind) is
// marked too: it carries the secret as much as the file's own objects.
func (f *rootFS) markEncrypted(objs []*manifest.Object, probs []*manifest.Problem) ([]*manifest.Object, []*manifest.Problem) {
	if len(f.sops) == 0 {
		return objs, probs
	}
	for _, o := range objs {
		if f.sops[o.File] || sops.Holds(o.Content) {
			o.Encrypted = true
		}
	}
	return objs, scrubProblems(append(probs, f.sopsProblems...))
}

// scrubProblems hides decrypted values in the problems' messages.
func scrubProblems(probs []*manifest.Problem) []*manifest.Problem {
	for _, p := range probs {
		p.Message = sops.Scrub(p.Message)
	}
	return probs
}

// readFlatSOPS is a generator input or other file kustomize reads that
// SOPS encrypted in a format other than YAML (dotenv, JSON, INI, binary):
// decrypted to what `sops -d` prints (dec.Decrypt), else as it is in git,
// its MAC verified when keys are at hand (lint). ok is false for a file
// that is not one.
func (f *rootFS) readFlatSOPS(path string, data []byte) (out []byte, err error, ok bool) {
	format, ok := sops.Detect(data)
	if !ok || format == sops.FormatYAML {
		return nil, nil, false
	}
	file := f.display(path)
	if f.sops == nil {
		f.sops = map[string]bool{}
	}
	f.sops[file] = true
	plain, p := manifest.DecryptFlat(file, data, format, f.dec)
	if p != nil {
		f.sopsProblems = append(f.sopsProblems, p)
		if f.dec.Decrypt {
			return nil, fmt.Errorf("%s does not decrypt", file), true
		}
	}
	if !f.dec.Decrypt {
		return data, nil, true
	}
	return plain, nil, true
}
