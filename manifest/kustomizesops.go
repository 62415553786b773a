package manifest

import "github.com/kubeplan/kubeplan/internal/sops"

// buildProblems reports a failed kustomize build: the SOPS files that did
// not decrypt, at their own positions, when that is why; else the build's
// error, with every decrypted value hidden (kustomize quotes the line of
// an envs: file it cannot parse, which may be a decrypted one).
func (f *rootFS) buildProblems(kfile string, err error) []*Problem {
	for _, p := range f.sopsProblems {
		if p.Rule == RuleSOPSDecrypt {
			return f.sopsProblems
		}
	}
	return scrubProblems([]*Problem{kustomizeProblem(kfile, f, err)})
}

// markEncrypted marks the objects built from SOPS-encrypted files (see
// Object.Encrypted) and adds the problems those files raised. An object
// holding a decrypted value anywhere (a replacement copied it, a
// configMapGenerator read the file, a patch changed the Secret's kind) is
// marked too: it carries the secret as much as the file's own objects.
func (f *rootFS) markEncrypted(objs []*Object, probs []*Problem) ([]*Object, []*Problem) {
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
func scrubProblems(probs []*Problem) []*Problem {
	for _, p := range probs {
		p.Message = sops.Scrub(p.Message)
	}
	return probs
}
