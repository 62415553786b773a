package plan

import (
	"context"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/manifest"
)

// withheldFields lists, for each change apply writes, the looked-up
// fields whose value the plan does not hold (HiddenLookup in its object:
// a plan made without the Secrets' data, saved).
func withheldFields(c Change) []Kept {
	if c.Action != Create && c.Action != Update && c.Action != Replace {
		return nil
	}
	var out []Kept
	for _, k := range c.Kept {
		if k.Reason != manifest.KeptLookedUp {
			continue
		}
		if v, ok := getPath(c.Object, k.Path); ok && v == HiddenLookup {
			out = append(out, k)
		}
	}
	return out
}

// holdsWithheld reports whether p holds a looked-up field as HiddenLookup.
func holdsWithheld(p *Plan) bool {
	for _, c := range p.Changes {
		if len(withheldFields(c)) > 0 {
			return true
		}
	}
	return false
}

// CheckWithheld refuses, without a request, a plan that would write a
// looked-up value it never saw: a field derived from a Secret the chart
// read with lookup, in an object that did not exist (or lacked the field)
// when the plan was made without the Secrets' data. Apply of the
// manifests renders it with the data.
func CheckWithheld(p *Plan) error {
	var missing []string
	for _, c := range p.Changes {
		for _, k := range withheldFields(c) {
			if !k.Live {
				missing = append(missing, c.Ref.String()+" "+k.Field)
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("the plan does not hold %s: derived from a Secret the chart read with lookup, which plan never sees; nothing was written. Run kubeplan apply on the manifests instead of on a saved plan", strings.Join(missing, ", "))
}

// FillWithheld gives the looked-up fields a plan kept live (and saved as
// HiddenLookup) their live value again, read just before apply writes:
// apply keeps what is in the cluster, as the plan said. It refuses what
// CheckWithheld refuses, and a field no longer live. It only reads.
func FillWithheld(ctx context.Context, c *kube.Client, p *Plan) error {
	if err := CheckWithheld(p); err != nil {
		return err
	}
	for i := range p.Changes {
		ch := &p.Changes[i]
		ks := withheldFields(*ch)
		if len(ks) == 0 {
			continue
		}
		gvr := schema.GroupVersionResource{Group: ch.Ref.Group, Version: ch.Ref.Version, Resource: ch.Ref.Resource}
		if gvr.Resource == "" {
			m, err := c.Mapper.RESTMapping(schema.GroupKind{Group: ch.Ref.Group, Kind: ch.Ref.Kind}, ch.Ref.Version)
			if err != nil {
				return fmt.Errorf("%s: %w", ch.Ref, err)
			}
			gvr = m.Resource
		}
		live, err := fetch(ctx, c, []address{{gvr, ch.Ref.Namespace, ch.Ref.Name}}, 1)
		if err != nil {
			return err
		}
		obj := runtime.DeepCopyJSON(ch.Object)
		for _, k := range ks {
			var v any
			ok := live[0] != nil
			if ok {
				v, ok = getPath(live[0].Object, k.Path)
			}
			if !ok || !setPath(obj, k.Path, v) {
				return fmt.Errorf("%s: %s, read from the cluster by lookup, is no longer live: the plan is stale, nothing was written; plan again", ch.Ref, k.Field)
			}
		}
		ch.Object = obj
	}
	return nil
}
