package manifest

// buildProblems reports a failed kustomize build: the SOPS files that did
// not decrypt, at their own positions, when that is why; else the build's
// error.
func (f *rootFS) buildProblems(kfile string, err error) []*Problem {
	for _, p := range f.sopsProblems {
		if p.Rule == RuleSOPSDecrypt {
			return f.sopsProblems
		}
	}
	return []*Problem{kustomizeProblem(kfile, f, err)}
}

// markEncrypted marks the objects built from SOPS-encrypted files (see
// Object.Encrypted) and adds the problems those files raised.
func (f *rootFS) markEncrypted(objs []*Object, probs []*Problem) ([]*Object, []*Problem) {
	if len(f.sops) == 0 {
		return objs, probs
	}
	for _, o := range objs {
		if f.sops[o.File] {
			o.Encrypted = true
		}
	}
	return objs, append(probs, f.sopsProblems...)
}
