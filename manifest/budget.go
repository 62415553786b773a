package manifest

import (
	"github.com/kubeplan/kubeplan/internal/sops"

	"bytes"
	"context"
	"fmt"
	"sync"
)

// What parsing costs is set by the number of YAML nodes and documents, not
// by bytes: a node costs 150 to 250 bytes of memory however short its text,
// so 16 MiB of "[1,1,1,...]" or of three-line documents took 1.8 GiB. Parse
// estimates a file's nodes before parsing anything (parseUnits) and refuses
// a file denser than any set of manifests, naming it; such a file is never
// parsed. The estimate counts lines, mapping keys, flow entries and
// openings, and a document as docUnits. Real manifests, CRDs and JSON
// objects have 6 bytes or more per unit (compact flow-style Deployments
// 6.2 to 7.5, Pod JSON 9.5, CRDs 11 or more); the shapes that cost 40x
// their size or more have 4 or fewer.
const (
	// MinBytesPerUnit is the least density a file over FreeUnits may
	// have: bytes of input per estimated YAML node.
	MinBytesPerUnit = 5
	// FreeUnits is what any file may hold whatever its density (some
	// 64 MiB of memory at most): a file of 10,000 three-line Namespaces
	// loads.
	FreeUnits = 256 << 10
	// MaxFileProblems bounds the problems reported for one file: after
	// that many the rest of the file is not parsed (a file of a million
	// broken documents is reported in a line, not a million).
	MaxFileProblems = 100
	// docUnits is what a document costs, in nodes: the object, its
	// identity, its findings.
	docUnits = 16
)

// parseUnits estimates how many YAML nodes parsing data makes, without
// parsing it.
func parseUnits(data []byte) int {
	// A flow entry costs two: flow collections are read by yaml.v3, with
	// a node tree and positions.
	n := bytes.Count(data, []byte("\n")) + 2*bytes.Count(data, []byte(",")) +
		bytes.Count(data, []byte("[")) + bytes.Count(data, []byte("{")) + bytes.Count(data, []byte(": "))
	return n + docUnits*(bytes.Count(data, []byte("\n---"))+bytes.Count(data, []byte("\n...")))
}

// densityProblem refuses data when parsing it would cost more memory than
// a set of manifests of its size can: more estimated nodes than FreeUnits
// and than one per MinBytesPerUnit bytes.
func densityProblem(file string, data []byte) *Problem {
	if len(data) < FreeUnits/2 { // a unit takes half a byte at least: never refused
		return nil
	}
	units := parseUnits(data)
	if units <= FreeUnits || units <= len(data)/MinBytesPerUnit {
		return nil
	}
	return &Problem{File: file, Pos: Pos{1, 1}, Rule: "invalid-yaml", Message: fmt.Sprintf(
		"not loaded: %.1f MiB holding about %d YAML nodes and documents (one per %.1f bytes), denser than any set of manifests, would take too much memory to parse; "+
			"kubeplan loads files with at most one node per %d bytes beyond the first %d (split the file, or write its long lists and maps in block style)",
		float64(len(data))/(1<<20), units, float64(len(data))/float64(units), MinBytesPerUnit, FreeUnits)}
}

// tooManyProblems is the problem that ends the parse of a file after
// MaxFileProblems.
func tooManyProblems(file string, line int) *Problem {
	return &Problem{File: file, Pos: Pos{line, 1}, Rule: "invalid-yaml", Message: fmt.Sprintf(
		"more than %d problems in this file: the rest of it, from this line, is not read (fix the problems above first)", MaxFileProblems)}
}

// ParseFileContext is parseFile that stops between documents once ctx is
// done (a SOPS file, small by nature, is read whole).
func ParseFileContext(ctx context.Context, file string, data []byte, dec Decryption) ([]*Object, []*Problem) {
	if MaybeSOPS(data) {
		return ParseFile(file, data, dec)
	}
	if f, ok := sops.Detect(data); ok && f != sops.FormatYAML && sops.FormatForPath(file) != sops.FormatYAML {
		return nil, flatSOPSFile(file, data, f, dec)
	}
	return parseStream(ctx, file, data)
}

// Stopped is ctx's cause once it is done, wrapped to say what stopped:
// nil while it runs (or when ctx is nil).
func Stopped(ctx context.Context) error {
	if ctx == nil || ctx.Err() == nil {
		return nil
	}
	return fmt.Errorf("loading stopped: %w", context.Cause(ctx))
}

// MaxLoadUnits bounds what one Load keeps (plan and apply keep every
// object of the set; lint streams file by file and is bounded by the
// density rule alone): about 8 million YAML nodes, some 2 GiB of memory,
// at least 50 MiB of manifests (the benchmark corpora, 32 and 46 MiB,
// load whole).
const MaxLoadUnits = 8 << 20

// loadBudget is what is left of MaxLoadUnits in one Load.
type loadBudget struct {
	mu   sync.Mutex
	left int
}

type budgetKey struct{}

// WithBudget gives ctx a budget of units that parseStream charges.
func WithBudget(ctx context.Context, units int) context.Context {
	return context.WithValue(ctx, budgetKey{}, &loadBudget{left: units})
}

// charge takes units for file from the budget in ctx, if any: a problem
// naming the file when they are not left.
func charge(ctx context.Context, file string, data []byte) *Problem {
	b, ok := ctx.Value(budgetKey{}).(*loadBudget)
	if !ok {
		return nil
	}
	units := parseUnits(data)
	b.mu.Lock()
	defer b.mu.Unlock()
	if units > b.left {
		return &Problem{File: file, Pos: Pos{1, 1}, Rule: "invalid-yaml", Message: fmt.Sprintf(
			"not loaded: with this file's %.1f MiB (about %d YAML nodes) the set would hold more than %d, kubeplan's bound for the objects one plan keeps (about 2 GiB of memory); plan a smaller set (one project, one overlay)",
			float64(len(data))/(1<<20), units, MaxLoadUnits)}
	}
	b.left -= units
	return nil
}
