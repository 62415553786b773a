package mutations

import (
	"fmt"
	"regexp"
	"strings"

	"sigs.k8s.io/yaml"
)

// Class is a kind of mutation.
type Class string

// The mutation classes of the issue.
const (
	UnknownField     Class = "unknown field"
	WrongType        Class = "wrong type"
	InvalidQuantity  Class = "invalid quantity"
	InvalidEnum      Class = "enum value outside its set"
	InvalidName      Class = "invalid name or label"
	SelectorMismatch Class = "selector not matching template"
	MissingField     Class = "missing field"
	PortRange        Class = "port out of range"
	DuplicateName    Class = "duplicate name"
)

// Classes lists the classes in report order.
var Classes = []Class{UnknownField, WrongType, InvalidQuantity, InvalidEnum, InvalidName,
	SelectorMismatch, MissingField, PortRange, DuplicateName}

// Mutation is one valid base object changed in one place.
type Mutation struct {
	ID     int
	Class  Class
	Kind   string
	Where  string // the field path changed
	What   string // what was done there
	Object map[string]any
}

// Namespaced reports whether the mutation's kind lives in a namespace.
func (m Mutation) Namespaced() bool {
	switch m.Kind {
	case "Namespace", "ClusterRole", "ClusterRoleBinding":
		return false
	}
	return true
}

// Bases returns the valid base objects, decoded: the workloads twice, with
// each pod, and one of each other kind.
func Bases() ([]map[string]any, error) {
	var out []map[string]any
	var srcs []string
	for _, pod := range []string{podSpec, podSpec2} {
		for _, w := range workloadBases {
			srcs = append(srcs, expandPod(w, pod))
		}
	}
	for _, src := range append(srcs, otherBases...) {
		var m map[string]any
		if err := yaml.Unmarshal([]byte(src), &m); err != nil {
			return nil, fmt.Errorf("base %.40q: %w", src, err)
		}
		out = append(out, m)
	}
	return out, nil
}

var podLine = regexp.MustCompile(`(?m)^( *)spec:\nPOD`)

// expandPod puts pod under the "spec:" line before POD, indented, with
// the restart policy the kind allows.
func expandPod(src, pod string) string {
	restart := "Always"
	if strings.Contains(src, "kind: Job") || strings.Contains(src, "kind: CronJob") {
		restart = "OnFailure"
	}
	return podLine.ReplaceAllStringFunc(src, func(m string) string {
		indent := podLine.FindStringSubmatch(m)[1] + "  "
		lines := strings.Split(strings.TrimSuffix(strings.ReplaceAll(pod, "RESTART", restart), "\n"), "\n")
		return strings.TrimSuffix(m, "POD") + indent + strings.Join(lines, "\n"+indent)
	})
}

// Generate makes every single mutation of every base, numbered from 0.
func Generate() ([]Mutation, error) {
	bases, err := Bases()
	if err != nil {
		return nil, err
	}
	var out []Mutation
	for _, b := range bases {
		kind, _ := b["kind"].(string)
		var nodes []node
		walk(b, nil, &nodes)
		g := &gen{base: b, kind: kind, nodes: nodes}
		for _, f := range generators {
			f(g)
		}
		out = append(out, g.out...)
	}
	for i := range out {
		out[i].ID = i
	}
	return out, nil
}

// gen collects the mutations of one base.
type gen struct {
	base  map[string]any
	kind  string
	nodes []node
	out   []Mutation
}

func (g *gen) add(c Class, p path, what string, obj map[string]any) {
	g.out = append(g.out, Mutation{Class: c, Kind: g.kind, Where: p.String(), What: what, Object: obj})
}

// generators make the mutations of each class.
var generators = []func(*gen){unknownFields, wrongTypes, missingFields, quantities, enums, names, selectors, ports, duplicates}

// fixed reports whether p is one of the fields that say what the object is
// (apiVersion, kind), which no mutation touches.
func fixed(p path) bool {
	return len(p) == 1 && (p[0] == "apiVersion" || p[0] == "kind")
}
