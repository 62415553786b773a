package plan

import (
	"strings"

	"github.com/kubeplan/kubeplan/internal/rollhash"
)

// maskRollKey masks, in place, the roll key of b and a (the canonical
// before and after Secrets; either may be nil) as maskValues masks a
// value: with the key and the digests a plan shows, a Secret's values
// could be guessed.
func maskRollKey(b, a map[string]any) {
	bm, am := annotations(b), annotations(a)
	bk, bok := bm[rollhash.KeyAnnotation]
	ak, aok := am[rollhash.KeyAnnotation]
	switch {
	case bok && aok && !equalValue(bk, ak):
		bm[rollhash.KeyAnnotation], am[rollhash.KeyAnnotation] = MaskedBefore, MaskedAfter
	default:
		if bok {
			bm[rollhash.KeyAnnotation] = Masked
		}
		if aok {
			am[rollhash.KeyAnnotation] = Masked
		}
	}
}

// isRollKeyField reports whether a conflict's field is a roll key, whose
// value a drift never shows.
func isRollKeyField(field string) bool {
	return strings.HasPrefix(field, ".metadata.annotations") && strings.HasSuffix(field, rollhash.KeyAnnotation)
}
