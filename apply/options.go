package apply

import (
	"io"
	"time"

	"github.com/kubeplan/kubeplan/internal/applyset"
)

// Options control an apply.
type Options struct {
	FieldManager string
	ApplySet     *applyset.Parent
	// Version is kubeplan's version, recorded in the parent's tooling.
	Version string
	// Concurrency bounds the writes in flight (default 16).
	Concurrency int
	// AllowEmpty allows an apply whose set is empty to prune every member.
	AllowEmpty bool
	// Wait for every applied object to be healthy, up to Timeout.
	Wait    bool
	Timeout time.Duration
	// Progress receives progress lines for long waits (stderr).
	Progress io.Writer
	// Revision is recorded on the parent with the time and result.
	Revision string
	// Replace names objects (KIND/NAME) that may be deleted and created
	// again when a change to an immutable field needs it.
	Replace []string
}

// Outcome is what happened to one object.
type Outcome string

const (
	Created    Outcome = "created"
	Configured Outcome = "configured"
	Unchanged  Outcome = "unchanged"
	Pruned     Outcome = "pruned"
)
