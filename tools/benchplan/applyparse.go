package main

import (
	"fmt"
	"strings"

	"github.com/kubeplan/kubeplan/internal/benchkit"
)

// applyOutcome is what one apply run reported about the objects.
type applyOutcome struct {
	Applied   int // written (kubeplan: created + configured; kubectl: serverside-applied)
	Unchanged int // kubeplan only: skipped because the dry-run showed no change
	Pruned    int
	Summary   string
}

// parseKubeplanApply reads `kubeplan apply`'s text output: one "REF
// OUTCOME" line per object and "Apply: N created, N configured, N pruned,
// N unchanged."
func parseKubeplanApply(out []byte) (applyOutcome, error) {
	var o applyOutcome
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(line, "Apply: "); ok {
			var created, configured int
			if _, err := fmt.Sscanf(rest, "%d created, %d configured, %d pruned, %d unchanged.", &created, &configured, &o.Pruned, &o.Unchanged); err != nil {
				return o, fmt.Errorf("reading kubeplan's summary %q: %w", line, err)
			}
			o.Applied = created + configured
			o.Summary = strings.TrimSuffix(rest, ".")
			return o, nil
		}
	}
	return o, fmt.Errorf("no \"Apply:\" summary in kubeplan's output: %q", benchkit.FirstLines(string(out), 3))
}

// parseKubectlApply counts kubectl apply's "KIND/NAME ACTION" lines.
func parseKubectlApply(out []byte) applyOutcome {
	var o applyOutcome
	counts := map[string]int{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || !strings.Contains(f[0], "/") {
			continue
		}
		action := f[len(f)-1]
		counts[action]++
		switch action {
		case "pruned":
			o.Pruned++
		case "unchanged":
			o.Unchanged++
		default: // serverside-applied, created, configured
			o.Applied++
		}
	}
	var parts []string
	for _, a := range []string{"serverside-applied", "created", "configured", "unchanged", "pruned"} {
		if counts[a] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[a], a))
		}
	}
	o.Summary = strings.Join(parts, ", ")
	return o
}
