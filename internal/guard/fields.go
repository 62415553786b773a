package guard

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
)

// field is one CEL field of Change or Plan: its type and how to read it
// from a *Change or *Plan without reflection.
type field struct {
	typ *types.Type
	get func(obj any) any
	set func(obj any) bool
}

var (
	dynMap   = cel.MapType(cel.StringType, cel.DynType)
	countMap = cel.MapType(cel.StringType, cel.IntType)

	// changeFields and planFields are the fields CEL sees; a field not
	// listed is unknown to the checker.
	changeFields = map[string]field{
		"action":    changeStr(func(c *Change) string { return c.Action }),
		"group":     changeStr(func(c *Change) string { return c.Group }),
		"version":   changeStr(func(c *Change) string { return c.Version }),
		"kind":      changeStr(func(c *Change) string { return c.Kind }),
		"namespace": changeStr(func(c *Change) string { return c.Namespace }),
		"name":      changeStr(func(c *Change) string { return c.Name }),
		"project":   changeStr(func(c *Change) string { return c.Project }),
		"cluster":   changeStr(func(c *Change) string { return c.Cluster }),
		"paths": {cel.ListType(cel.StringType),
			func(o any) any { return nonNilStrings(asChange(o).Paths) },
			func(o any) bool { return len(asChange(o).Paths) > 0 }},
		"before": {dynMap,
			func(o any) any { return object(asChange(o), asChange(o).Before) },
			func(o any) bool { return len(object(asChange(o), asChange(o).Before)) > 0 }},
		"after": {dynMap,
			func(o any) any { return object(asChange(o), asChange(o).After) },
			func(o any) bool { return len(object(asChange(o), asChange(o).After)) > 0 }},
	}
	planFields = map[string]field{
		"project":   planStr(func(p *Plan) string { return p.Project }),
		"cluster":   planStr(func(p *Plan) string { return p.Cluster }),
		"namespace": planStr(func(p *Plan) string { return p.Namespace }),
		"applyset":  planStr(func(p *Plan) string { return p.ApplySet }),
		"counts": {countMap,
			func(o any) any { return nonNilCounts(asPlan(o).Counts) },
			func(o any) bool { return len(asPlan(o).Counts) > 0 }},
		"kinds": {cel.MapType(cel.StringType, countMap),
			func(o any) any {
				if k := asPlan(o).Kinds; k != nil {
					return k
				}
				return map[string]map[string]int64{}
			},
			func(o any) bool { return len(asPlan(o).Kinds) > 0 }},
		"members": {cel.IntType,
			func(o any) any { return asPlan(o).Members },
			func(o any) bool { return asPlan(o).Members != 0 }},
		"prunedFraction": {cel.DoubleType,
			func(o any) any { return asPlan(o).PrunedFraction },
			func(o any) bool { return asPlan(o).PrunedFraction != 0 }},
	}
)

func changeStr(f func(*Change) string) field {
	return field{cel.StringType,
		func(o any) any { return types.String(f(asChange(o))) },
		func(o any) bool { return f(asChange(o)) != "" }}
}

func planStr(f func(*Plan) string) field {
	return field{cel.StringType,
		func(o any) any { return types.String(f(asPlan(o))) },
		func(o any) bool { return f(asPlan(o)) != "" }}
}

// asChange and asPlan accept the pointer Evaluate binds and, for a value
// CEL made itself, the struct.
func asChange(o any) *Change {
	if c, ok := o.(*Change); ok {
		return c
	}
	c := o.(Change)
	return &c
}

func asPlan(o any) *Plan {
	if p, ok := o.(*Plan); ok {
		return p
	}
	p := o.(Plan)
	return &p
}

// An absent field reads as empty, never as null: change.after.metadata on
// a prune is then "no such key", an error the rule's author sees, and
// change.paths.exists(...) on a create is false.
func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// object is c's before or after as CEL sees it: empty when absent, and
// always for a Secret, even if a caller filled it in, so that no rule and
// no message can read a Secret's values.
func object(c *Change, m map[string]any) map[string]any {
	if m == nil || c.Group == "" && c.Kind == "Secret" {
		return map[string]any{}
	}
	return m
}

func nonNilCounts(m map[string]int64) map[string]int64 {
	if m == nil {
		return map[string]int64{}
	}
	return m
}

// provider is the NativeTypes provider with Change's and Plan's fields
// answered from changeFields and planFields.
type provider struct{ types.Provider }

func (p *provider) fields(typeName string) (map[string]field, bool) {
	switch typeName {
	case changeType:
		return changeFields, true
	case planType:
		return planFields, true
	}
	return nil, false
}

// FindStructFieldNames implements types.Provider.
func (p *provider) FindStructFieldNames(typeName string) ([]string, bool) {
	fs, ok := p.fields(typeName)
	if !ok {
		return p.Provider.FindStructFieldNames(typeName)
	}
	names := make([]string, 0, len(fs))
	for n := range fs {
		names = append(names, n)
	}
	return names, true
}

// FindStructFieldType implements types.Provider.
func (p *provider) FindStructFieldType(typeName, fieldName string) (*types.FieldType, bool) {
	fs, ok := p.fields(typeName)
	if !ok {
		return p.Provider.FindStructFieldType(typeName, fieldName)
	}
	f, ok := fs[fieldName]
	if !ok {
		return nil, false
	}
	return &types.FieldType{
		Type:    f.typ,
		IsSet:   f.set,
		GetFrom: func(o any) (any, error) { return f.get(o), nil },
	}, true
}
