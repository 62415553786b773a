package admission

import (
	"strings"
)

// FieldPathOf reads a validation's fieldPath (".spec.containers[0].image",
// "metadata.labels['app']") as the path segments manifest.Object looks
// fields up with; nil when it cannot be read.
func FieldPathOf(fp string) []string {
	fp = strings.TrimPrefix(strings.TrimSpace(fp), ".")
	var out []string
	for fp != "" {
		switch fp[0] {
		case '.':
			fp = fp[1:]
		case '[':
			end := strings.IndexByte(fp, ']')
			if end < 0 {
				return nil
			}
			seg := fp[1:end]
			if len(seg) >= 2 && (seg[0] == '\'' || seg[0] == '"') && seg[len(seg)-1] == seg[0] {
				seg = seg[1 : len(seg)-1]
			}
			out = append(out, seg)
			fp = fp[end+1:]
		default:
			end := strings.IndexAny(fp, ".[")
			if end < 0 {
				end = len(fp)
			}
			out = append(out, fp[:end])
			fp = fp[end:]
		}
	}
	return out
}
