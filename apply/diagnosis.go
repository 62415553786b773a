package apply

import (
	"errors"

	"github.com/kubeplan/kubeplan/health"
	"github.com/kubeplan/kubeplan/plan"
)

// withSources sets, on every diagnosis of results and of the wait's error
// err, where its workload is defined in the manifests (the change's
// Source: file:line:col).
func withSources(results []health.Result, err error, keep []plan.Change) {
	src := make(map[plan.Ref]string, len(keep))
	for _, ch := range keep {
		src[ch.Ref] = ch.Source.String()
	}
	set := func(rs []health.Result) {
		for _, r := range rs {
			if r.Diagnosis != nil && r.Diagnosis.Source == "" {
				r.Diagnosis.Source = src[r.Ref]
			}
		}
	}
	set(results)
	var ue *health.UnhealthyError
	if errors.As(err, &ue) {
		set(ue.Results)
	}
}
