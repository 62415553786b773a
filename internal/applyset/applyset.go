package applyset

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
)

// Label and annotation keys of the ApplySet specification, spelled as kubectl spells them.
const (
	// LabelID is on the parent; its value is the set's ID.
	LabelID = "applyset.kubernetes.io/id"
	// LabelPartOf is on every member; its value is the parent's ID.
	LabelPartOf = "applyset.kubernetes.io/part-of"
	// LabelParentType is on a CRD whose custom resources may be parents (not supported here yet).
	LabelParentType = "applyset.kubernetes.io/is-parent-type"

	// AnnotationTooling is "<tool>/<version>", e.g. "kubectl/v1.32.4"; tools leave other tools' sets alone.
	AnnotationTooling = "applyset.kubernetes.io/tooling"
	// AnnotationGroupKinds is the sorted, comma-separated Kind.group list of the member types.
	AnnotationGroupKinds = "applyset.kubernetes.io/contains-group-kinds"
	// AnnotationGroupResources is the deprecated predecessor of AnnotationGroupKinds
	// (resource.group, e.g. "configmaps,deployments.apps"). It is read, never written.
	AnnotationGroupResources = "applyset.kubernetes.io/contains-group-resources"
	// AnnotationNamespaces lists the namespaces holding members other than the parent's own.
	AnnotationNamespaces = "applyset.kubernetes.io/additional-namespaces"
)

// ToolName is the name kubeplan records in AnnotationTooling.
const ToolName = "kubeplan"

// ErrNotParent is returned (wrapped) by ReadState for an object that carries
// none of the ApplySet parent label and annotations: it exists but is no parent.
var ErrNotParent = errors.New("not an ApplySet parent")

// GroupKind is a Kind with its API group ("" for the core group). Its String
// is the form of the contains-group-kinds annotation: "Deployment.apps", "ConfigMap".
type GroupKind = schema.GroupKind

// GroupResource is a resource with its API group, as in the deprecated
// contains-group-resources annotation: "deployments.apps", "configmaps".
type GroupResource = schema.GroupResource

// Parent identifies an ApplySet's parent object.
type Parent struct {
	Kind      string // "ConfigMap" or "Secret"
	Group     string // "" for both supported kinds
	Name      string
	Namespace string
}

// parentTypes are the parent types kubectl allows without a labelled CRD,
// keyed by every spelling kubectl's REST mapper resolves (case-insensitively):
// resource, singular resource, kind and short name.
var parentTypes = map[string]string{
	"configmaps": "ConfigMap",
	"configmap":  "ConfigMap",
	"cm":         "ConfigMap",
	"secrets":    "Secret",
	"secret":     "Secret",
}

// ParseParentFlag parses the --applyset flag the way kubectl does:
// [RESOURCE][.GROUP]/NAME, where RESOURCE may be a resource, singular, kind or
// short name in any case ("configmap/x", "configmaps/x", "cm/x", "ConfigMap/x",
// "secrets/x") and a bare NAME means a Secret, kubectl's default. Both
// supported parents are namespaced, so namespace (the -n flag) is required.
// Custom-resource parents are not supported yet.
func ParseParentFlag(s, namespace string) (Parent, error) {
	typ, name, hasType := strings.Cut(s, "/")
	if !hasType {
		typ, name = "secrets", s
	}
	if name == "" {
		return Parent{}, fmt.Errorf("applyset %q: name cannot be blank (want [RESOURCE][.GROUP]/NAME, e.g. configmap/gitops-applyset)", s)
	}
	resource, group, _ := strings.Cut(typ, ".")
	if resource == "" {
		return Parent{}, fmt.Errorf("applyset %q: resource cannot be blank (want [RESOURCE][.GROUP]/NAME, e.g. configmap/gitops-applyset)", s)
	}
	kind, ok := parentTypes[strings.ToLower(resource)]
	if !ok || group != "" {
		return Parent{}, fmt.Errorf("applyset %q: parent type %q is not supported: use a ConfigMap or a Secret (configmap/NAME or secret/NAME)", s, typ)
	}
	if errs := validation.IsDNS1123Subdomain(name); len(errs) > 0 {
		return Parent{}, fmt.Errorf("applyset %q: invalid %s name %q: %s", s, kind, name, strings.Join(errs, "; "))
	}
	if namespace == "" {
		return Parent{}, fmt.Errorf("applyset %q: a namespace is required for a %s parent", s, kind)
	}
	if errs := validation.IsDNS1123Label(namespace); len(errs) > 0 {
		return Parent{}, fmt.Errorf("applyset %q: invalid namespace %q: %s", s, namespace, strings.Join(errs, "; "))
	}
	return Parent{Kind: kind, Name: name, Namespace: namespace}, nil
}

// ID is the set's ID: "applyset-" + base64url-without-padding of the SHA-256 of
// "<name>.<namespace>.<Kind>.<group>" + "-v1". For a core-group parent the
// hashed string ends in a dot: "gitops-applyset.store.ConfigMap.".
func (p Parent) ID() string {
	sum := sha256.Sum256([]byte(p.Name + "." + p.Namespace + "." + p.Kind + "." + p.Group))
	return "applyset-" + base64.RawURLEncoding.EncodeToString(sum[:]) + "-v1"
}

// GroupKind is the parent's type.
func (p Parent) GroupKind() GroupKind { return GroupKind{Group: p.Group, Kind: p.Kind} }

// Resource is the parent type's plural resource name ("configmaps", "secrets").
func (p Parent) Resource() string { return strings.ToLower(p.Kind) + "s" }

// String is the parent in the --applyset flag's form, e.g. "configmap/gitops-applyset".
func (p Parent) String() string {
	t := strings.ToLower(p.Kind)
	if p.Group != "" {
		t += "." + p.Group
	}
	return t + "/" + p.Name
}

// State is what a parent records about its set.
type State struct {
	ID      string // the parent's LabelID
	Tooling string // AnnotationTooling, e.g. "kubeplan/v0.3.0"
	// GroupKinds are the member types, sorted as kubectl writes them.
	GroupKinds []GroupKind
	// GroupResources is set only when a parent has the deprecated
	// contains-group-resources annotation and not contains-group-kinds; the
	// caller maps them to kinds with discovery. Annotations never writes it.
	GroupResources []GroupResource
	// Namespaces are the additional namespaces: those holding members other
	// than the parent's own. Sorted, without duplicates.
	Namespaces []string
}

// NewState is the state kubeplan writes for parent p at the given version,
// with members of the given kinds in the given namespaces (the parent's own
// namespace and "" may be among them; they are dropped).
func NewState(p Parent, version string, kinds []GroupKind, namespaces []string) State {
	var ns []string
	for _, n := range namespaces {
		if n != "" && n != p.Namespace {
			ns = append(ns, n)
		}
	}
	return State{ID: p.ID(), Tooling: Tooling(version), GroupKinds: Union(kinds, nil), Namespaces: sortedSet(ns)}
}

var idPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^applyset-[A-Za-z0-9_-]{43}-v1$`) })

// ReadState parses a live parent's labels and annotations. It fails, with a
// message naming the label or annotation, on a malformed parent; on an object
// with none of the parent metadata it fails with an error wrapping ErrNotParent.
// Like kubectl, it needs contains-group-kinds or else the deprecated
// contains-group-resources annotation (an empty value is an empty set).
func ReadState(labels, annotations map[string]string) (State, error) {
	id, hasID := labels[LabelID]
	tooling, hasTooling := annotations[AnnotationTooling]
	gks, hasGKs := annotations[AnnotationGroupKinds]
	grs, hasGRs := annotations[AnnotationGroupResources]
	nss, hasNSs := annotations[AnnotationNamespaces]
	if !hasID && !hasTooling && !hasGKs && !hasGRs && !hasNSs {
		return State{}, fmt.Errorf("%w: no %s label", ErrNotParent, LabelID)
	}
	var s State
	switch {
	case !hasID:
		return State{}, fmt.Errorf("ApplySet parent has no %s label", LabelID)
	case !idPattern().MatchString(id):
		return State{}, fmt.Errorf("ApplySet parent label %s=%q is not of the form applyset-<base64url sha256>-v1", LabelID, id)
	case !hasTooling:
		return State{}, fmt.Errorf("ApplySet parent has no %s annotation", AnnotationTooling)
	case ToolNameOf(tooling) == "":
		return State{}, fmt.Errorf("ApplySet parent annotation %s=%q names no tool (want <tool>/<version>)", AnnotationTooling, tooling)
	}
	s.ID, s.Tooling = id, tooling
	var err error
	switch {
	case hasGKs:
		if s.GroupKinds, err = ParseGroupKinds(gks); err != nil {
			return State{}, fmt.Errorf("ApplySet parent annotation %s: %w", AnnotationGroupKinds, err)
		}
	case hasGRs:
		if s.GroupResources, err = ParseGroupResources(grs); err != nil {
			return State{}, fmt.Errorf("ApplySet parent annotation %s: %w", AnnotationGroupResources, err)
		}
	default:
		return State{}, fmt.Errorf("ApplySet parent has neither the %s nor the %s annotation", AnnotationGroupKinds, AnnotationGroupResources)
	}
	if s.Namespaces, err = parseList(nss); err != nil {
		return State{}, fmt.Errorf("ApplySet parent annotation %s: %w", AnnotationNamespaces, err)
	}
	for _, n := range s.Namespaces {
		if errs := validation.IsDNS1123Label(n); len(errs) > 0 {
			return State{}, fmt.Errorf("ApplySet parent annotation %s: invalid namespace %q: %s", AnnotationNamespaces, n, strings.Join(errs, "; "))
		}
	}
	s.Namespaces = sortedSet(s.Namespaces)
	return s, nil
}

// Read is ReadState that also checks the ID label belongs to p (a copied or
// renamed parent carries another set's ID).
func (p Parent) Read(labels, annotations map[string]string) (State, error) {
	s, err := ReadState(labels, annotations)
	if err != nil {
		return State{}, err
	}
	if want := p.ID(); s.ID != want {
		return State{}, fmt.Errorf("ApplySet parent %s has label %s=%s, want %s", p, LabelID, s.ID, want)
	}
	return s, nil
}

// Labels are the parent's labels to write.
func (s State) Labels() map[string]string {
	return map[string]string{LabelID: s.ID}
}

// Annotations are the parent's annotations to write: the three kubectl writes,
// the empty ones included. The deprecated contains-group-resources annotation
// is not among them; a server-side apply by the parent's field manager drops it.
func (s State) Annotations() map[string]string {
	return map[string]string{
		AnnotationTooling:    s.Tooling,
		AnnotationGroupKinds: FormatGroupKinds(s.GroupKinds),
		AnnotationNamespaces: strings.Join(sortedSet(s.Namespaces), ","),
	}
}

// Tooling is kubeplan's AnnotationTooling value: "kubeplan/<version>".
func Tooling(version string) string {
	if version == "" {
		version = "unknown"
	}
	return ToolName + "/" + version
}

// ToolNameOf is the tool part of a tooling value, everything before the last
// slash ("kubectl/v1.32.4" -> "kubectl"), or the whole value when it has none,
// as kubectl reads it.
func ToolNameOf(tooling string) string {
	if i := strings.LastIndex(tooling, "/"); i >= 0 {
		return tooling[:i]
	}
	return tooling
}

// IsOurs reports whether a tooling value is kubeplan's. Any other tool's set
// (kubectl's included) is foreign: kubeplan changes it only when told to adopt it.
func IsOurs(tooling string) bool { return ToolNameOf(tooling) == ToolName }

// MemberLabels are the labels every member carries.
func MemberLabels(id string) map[string]string { return map[string]string{LabelPartOf: id} }

// MemberSelector selects the members of the set with this ID.
func MemberSelector(id string) string { return LabelPartOf + "=" + id }

// ParseGroupKinds parses a contains-group-kinds value ("ConfigMap,Deployment.apps").
// Like kubectl, the group is everything after the kind's first dot. The result
// is sorted and without duplicates; "" is the empty set.
func ParseGroupKinds(s string) ([]GroupKind, error) {
	items, err := parseList(s)
	if err != nil {
		return nil, err
	}
	var gks []GroupKind
	for _, it := range items {
		gk := schema.ParseGroupKind(it)
		if gk.Kind == "" || strings.HasSuffix(it, ".") {
			return nil, fmt.Errorf("malformed group kind %q (want Kind or Kind.group)", it)
		}
		gks = append(gks, gk)
	}
	return Union(gks, nil), nil
}

// FormatGroupKinds is the contains-group-kinds value for gks: sorted by their
// String, as kubectl sorts them, without duplicates, comma-separated.
func FormatGroupKinds(gks []GroupKind) string {
	u := Union(gks, nil)
	parts := make([]string, len(u))
	for i, gk := range u {
		parts[i] = gk.String()
	}
	return strings.Join(parts, ",")
}

// ParseGroupResources parses the deprecated contains-group-resources value
// ("configmaps,deployments.apps"): sorted, without duplicates.
func ParseGroupResources(s string) ([]GroupResource, error) {
	items, err := parseList(s)
	if err != nil {
		return nil, err
	}
	var grs []GroupResource
	for _, it := range items {
		gr := schema.ParseGroupResource(it)
		if gr.Resource == "" || strings.HasSuffix(it, ".") {
			return nil, fmt.Errorf("malformed group resource %q (want resource or resource.group)", it)
		}
		grs = append(grs, gr)
	}
	slices.SortFunc(grs, func(a, b GroupResource) int { return strings.Compare(a.String(), b.String()) })
	return slices.Compact(grs), nil
}

// Union is the sorted (by String), duplicate-free union of a and b.
func Union(a, b []GroupKind) []GroupKind {
	var u []GroupKind
	u = append(u, a...)
	u = append(u, b...)
	slices.SortFunc(u, func(x, y GroupKind) int { return strings.Compare(x.String(), y.String()) })
	return slices.Compact(u)
}

// parseList splits a comma-separated annotation value; "" is the empty list,
// spaces around items are ignored and an empty item is an error.
func parseList(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	items := strings.Split(s, ",")
	for i, it := range items {
		items[i] = strings.TrimSpace(it)
		if items[i] == "" {
			return nil, fmt.Errorf("empty item in %q", s)
		}
	}
	return items, nil
}

func sortedSet(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}
