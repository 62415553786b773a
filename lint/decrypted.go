package lint

import "github.com/kubeplan/kubeplan/internal/sops"

// hideDecrypted hides every value decrypted from SOPS (sops.Scrub) in
// what findings say: a schema error or a policy's message quotes the
// value it judged, which may have been copied out of a SOPS-encrypted
// Secret.
func hideDecrypted(fs []Finding) {
	if !sops.Any() {
		return
	}
	for i := range fs {
		f := &fs[i]
		f.Message, f.Object, f.Field = sops.Scrub(f.Message), sops.Scrub(f.Object), sops.Scrub(f.Field)
	}
}
