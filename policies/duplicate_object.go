package policies

import (
	"fmt"

	"github.com/kubeplan/kubeplan/manifest"
)

var duplicateObject = Rule{
	ID:          "duplicate-object",
	Severity:    SeverityError,
	Description: "each object (group, kind, namespace, name) must be defined only once",
	Check:       checkDuplicateObject,
	SetWide:     true,
}

func checkDuplicateObject(objs []*manifest.Object, opts Options) []Violation {
	first := map[string]*manifest.Object{}
	var out []Violation
	for _, o := range objs {
		// Objects with only generateName get a new name on every create,
		// so they never collide.
		if o == nil || o.Kind == "" || !o.HasName() {
			continue
		}
		key := o.Key()
		if o.Namespace == "" && opts.Namespace != "" {
			// Applied with --namespace, the object lands there.
			key = o.Group() + "/" + o.Kind + "/" + opts.Namespace + "/" + o.Name
		}
		f, seen := first[key]
		if !seen {
			first[key] = o
			continue
		}
		where := ""
		if ns := o.Namespace; ns != "" {
			where = fmt.Sprintf(" in namespace %q", ns)
		}
		out = append(out, Violation{
			Object: o,
			Path:   []string{"metadata", "name"},
			Message: fmt.Sprintf("%s%s is defined more than once, first defined at %s:%d; remove one copy or rename it",
				o, where, f.FileOf("metadata", "name"), f.Pos("metadata", "name").Line),
		})
	}
	return out
}
