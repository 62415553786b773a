package plan

import (
	"encoding/json"
	"fmt"

	"github.com/kubeplan/kubeplan/internal/sops"
)

// hideDecrypted hides every value decrypted from a SOPS file (see
// sops.Revealed) in what the views show of p: diffs, drift, reasons and
// warnings of every change, whatever the object's kind, so a value a
// kustomization copied out of a Secret (into a ConfigMap, an annotation,
// a generated object, a Secret turned ConfigMap) shows as sops.Mask. A
// change whose object holds such a value is marked Decrypted (Save
// refuses it). The objects themselves keep their values: apply sends
// them. An object whose name or namespace holds a decrypted value is an
// error: names are printed everywhere, and are no place for a secret.
func hideDecrypted(p *Plan) error {
	if len(sops.Revealed()) == 0 {
		return nil
	}
	for i := range p.Changes {
		c := &p.Changes[i]
		if sops.Contains(c.Ref.Namespace) || sops.Contains(c.Ref.Name) || sops.Contains(c.Ref.Kind) {
			return fmt.Errorf("%s: an object's name, namespace or kind holds a value decrypted from a SOPS file, and names are printed in every plan: copy secrets into data, never into a name", c.Source)
		}
		if !c.Decrypted && sops.Holds(c.Object) {
			c.Decrypted = true
		}
		obj, ref := c.Object, c.Ref
		c.Object = nil
		if err := scrubJSON(c); err != nil {
			return err
		}
		c.Object, c.Ref = obj, ref
	}
	for i := range p.Warnings {
		ref := p.Warnings[i].Ref
		if err := scrubJSON(&p.Warnings[i]); err != nil {
			return err
		}
		p.Warnings[i].Ref = ref
	}
	return nil
}

// scrubJSON hides decrypted values in every string of *v, through its
// JSON form (the masks include each value as JSON escapes it).
func scrubJSON[T any](v *T) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("hiding decrypted values: %w", err)
	}
	s := sops.Scrub(string(b))
	if s == string(b) {
		return nil
	}
	var out T
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		return fmt.Errorf("hiding decrypted values: %w", err)
	}
	*v = out
	return nil
}
