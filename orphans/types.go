package orphans

import "time"

// Result is what Find found in a set of namespaces.
type Result struct {
	// Namespaces are the namespaces looked in, sorted.
	Namespaces []string `json:"namespaces"`
	// Objects are the objects nobody manages, sorted by namespace, group,
	// kind and name.
	Objects []Object `json:"orphans"`
	// NotChecked are the types (per namespace) that were not read, and why.
	NotChecked []NotChecked `json:"notChecked,omitempty"`
	// Lists is how many LIST requests were made.
	Lists int `json:"lists"`
}

// Object is one object nobody manages.
type Object struct {
	Group     string    `json:"group,omitempty"`
	Version   string    `json:"version"`
	Kind      string    `json:"kind"`
	Resource  string    `json:"resource"`
	Namespace string    `json:"namespace"`
	Name      string    `json:"name"`
	Created   time.Time `json:"created"`
	// LastManager is the field manager of the newest managedFields entry
	// ("" when the object has none).
	LastManager string `json:"lastManager,omitempty"`
}

// Ref is the object as kubectl names it: kind.group/name, lower case.
func (o Object) Ref() string { return typeName(o.Kind, o.Group) + "/" + o.Name }

// NotChecked is a type in a namespace that was not read.
type NotChecked struct {
	Group     string `json:"group,omitempty"`
	Resource  string `json:"resource"`
	Namespace string `json:"namespace,omitempty"` // "" when it held for every namespace (discovery)
	// Reason is why: "forbidden" when the identity may not list it, or
	// the error the server answered.
	Reason string `json:"reason"`
}

// Type is the resource as kubectl names it: resource.group.
func (n NotChecked) Type() string {
	if n.Group == "" {
		return n.Resource
	}
	return n.Resource + "." + n.Group
}
