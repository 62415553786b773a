package apply

import (
	"errors"
	"fmt"
	"strings"

	"github.com/kubeplan/kubeplan/plan"
)

// ErrOwnedElsewhere is why a plan that takes over objects another owner
// manages (another ApplySet, a Helm release, Flux, Argo CD) is refused
// without --adopt; nothing is written then.
var ErrOwnedElsewhere = errors.New("the plan takes over objects that belong to another owner")

// CheckOwners refuses, before any write (and before apply asks), a plan
// whose updates or replacements take over an object someone else owns
// (plan.Change.Owner), unless adopt. It makes no request.
func CheckOwners(p *plan.Plan, adopt bool) error {
	if adopt {
		return nil
	}
	var refused []string
	for _, ch := range p.Changes {
		if ch.Owner == "" || (ch.Action != plan.Update && ch.Action != plan.Replace) {
			continue
		}
		refused = append(refused, fmt.Sprintf("%s (owned by %s)", ch.Ref, ch.Owner))
	}
	if len(refused) == 0 {
		return nil
	}
	return fmt.Errorf("%w; nothing was written. Refused: %s. To take them over, apply once from the command line with --adopt (kubeplan serve never adopts): they then belong to this ApplySet, which prunes them when they leave its manifests",
		ErrOwnedElsewhere, strings.Join(refused, ", "))
}
