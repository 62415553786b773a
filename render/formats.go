package render

import (
	"fmt"
	"strings"
)

// formats maps --output names to renderers of one kind (F), in the order
// they are listed to users.
type formats[F any] []format[F]

type format[F any] struct {
	name   string
	render F
}

// names lists the formats in order.
func (fs formats[F]) names() []string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.name
	}
	return names
}

// find returns the renderer of name, or an error listing the valid names.
func (fs formats[F]) find(name string) (F, error) {
	for _, f := range fs {
		if f.name == name {
			return f.render, nil
		}
	}
	var zero F
	return zero, fmt.Errorf("unknown output format %q (want one of %s)", name, strings.Join(fs.names(), ", "))
}
