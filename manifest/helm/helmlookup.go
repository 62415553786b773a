package helm

import "context"

// Lookup is what a chart's lookup function reads in plan and apply,
// as helm install/upgrade read the cluster: Lookup returns the object
// named (name set) or a list ({"items": [...]}, name empty), or an empty
// map when there is none, exactly as helm's lookup does. It must only
// read. A nil Lookup is lint's and helm template's: lookup returns an
// empty map.
type Lookup interface {
	Lookup(ctx context.Context, apiVersion, kind, namespace, name string) (map[string]any, error)
}
