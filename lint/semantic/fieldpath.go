package semantic

import (
	"strconv"
	"strings"
)

// FieldPath renders a path as the API server names a field:
// spec.containers[0].image; a key holding a dot, slash or space is quoted
// (metadata.labels["app.kubernetes.io/name"]).
func FieldPath(path []string) string {
	var b strings.Builder
	for _, p := range path {
		if _, err := strconv.Atoi(p); err == nil {
			b.WriteString("[" + p + "]")
			continue
		}
		if strings.ContainsAny(p, "./ ") {
			b.WriteString("[" + strconv.Quote(p) + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}
