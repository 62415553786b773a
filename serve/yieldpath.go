package serve

import (
	"strconv"
	"strings"

	"github.com/kubeplan/kubeplan/internal/config"
)

// yieldPathOf turns a field path as the API server writes it
// (.spec.template.spec.containers[name="web"].resources) into a yield:
// path: a list item named by one key keeps it, any other becomes [*].
//
// The API server's path does not mark a field name holding dots; after
// the maps whose keys often do (annotations, labels, a ConfigMap's or
// Secret's data) the rest is one key.
func yieldPathOf(field string) config.YieldPath {
	var out config.YieldPath
	for i := 0; i < len(field); {
		if stringMap(out) && field[i] == '.' {
			return append(out, config.YieldStep{Field: field[i+1:]})
		}
		switch field[i] {
		case '.':
			j := i + 1
			for j < len(field) && field[j] != '.' && field[j] != '[' {
				j++
			}
			out = append(out, config.YieldStep{Field: field[i+1 : j]})
			i = j
		case '[':
			end := config.SelectorEnd(field[i+1:])
			if end < 0 {
				return append(out, config.YieldStep{All: true})
			}
			out = append(out, itemStep(field[i+1:i+1+end]))
			i += end + 2
		default:
			j := i
			for j < len(field) && field[j] != '.' && field[j] != '[' {
				j++
			}
			out = append(out, config.YieldStep{Field: field[i:j]})
			i = j
		}
	}
	return out
}

// itemStep is the step of a selector: [name="web"] is [name=web]; a
// selector of several keys, a set value or a position is [*].
func itemStep(sel string) config.YieldStep {
	k, v, ok := strings.Cut(sel, "=")
	if !ok || k == "" || strings.ContainsAny(k, `",`) {
		return config.YieldStep{All: true}
	}
	if u, err := strconv.Unquote(v); err == nil {
		return config.YieldStep{Key: k, Value: u}
	}
	if strings.ContainsAny(v, `",`) {
		return config.YieldStep{All: true}
	}
	return config.YieldStep{Key: k, Value: v}
}

// stringMap reports whether p names a map of strings whose keys may hold
// dots.
func stringMap(p config.YieldPath) bool {
	switch p.String() {
	case "metadata.annotations", "metadata.labels", "data", "binaryData", "stringData":
		return true
	}
	return false
}
