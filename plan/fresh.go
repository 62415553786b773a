package plan

import (
	"context"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/internal/kube"
)

// StaleError lists what moved in the cluster since a saved plan was made.
type StaleError struct{ Moved []string }

func (e *StaleError) Error() string {
	return "the plan is stale, nothing was written; plan again. Changed since the plan was made:\n  " + strings.Join(e.Moved, "\n  ")
}

// CheckFresh refuses a saved plan when any object it was computed from
// changed, appeared or disappeared, or when the ApplySet parent changed.
// For kinds with a generation, only a new generation (a spec change) is a
// change: a controller updating the status (a Deployment rolling out) does
// not make a plan stale. It only reads.
func CheckFresh(ctx context.Context, c *kube.Client, p *Plan) error {
	type probe struct {
		ref     Ref
		wantRV  string
		wantGen int64
	}
	var probes []probe
	for _, ch := range p.Changes {
		if ch.AfterCRD {
			continue // its type does not exist yet; its CRD is probed
		}
		probes = append(probes, probe{ch.Ref, ch.LiveResourceVersion, ch.LiveGeneration})
	}
	if p.Parent != nil {
		rv := ""
		if p.Parent.Exists {
			rv = p.Parent.ResourceVersion
		}
		probes = append(probes, probe{p.Parent.Ref, rv, 0})
	}
	addrs := make([]address, len(probes))
	for i, pr := range probes {
		gvr := schema.GroupVersionResource{Group: pr.ref.Group, Version: pr.ref.Version, Resource: pr.ref.Resource}
		if gvr.Resource == "" {
			m, err := c.Mapper.RESTMapping(schema.GroupKind{Group: pr.ref.Group, Kind: pr.ref.Kind}, pr.ref.Version)
			if err != nil {
				return fmt.Errorf("%s: %w", pr.ref, err)
			}
			gvr = m.Resource
		}
		addrs[i] = address{gvr, pr.ref.Namespace, pr.ref.Name}
	}
	live, err := fetch(ctx, c, addrs, 16)
	if err != nil {
		return err
	}
	moved := make([]string, len(probes))
	for i, pr := range probes {
		got := ""
		if live[i] != nil {
			got = live[i].GetResourceVersion()
		}
		switch {
		case got == pr.wantRV:
		case got != "" && pr.wantGen > 0 && live[i].GetGeneration() == pr.wantGen:
			// only the status (or other generation-less fields) moved
		case pr.wantRV == "":
			moved[i] = pr.ref.String() + " appeared"
		case got == "":
			moved[i] = pr.ref.String() + " was deleted"
		default:
			moved[i] = pr.ref.String() + " was modified"
		}
	}
	var out []string
	for i := range probes {
		if moved[i] != "" {
			out = append(out, moved[i])
		}
	}
	if len(out) > 0 {
		return &StaleError{Moved: out}
	}
	return nil
}
