package plan

import (
	"encoding/json"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// ownedPart is the part of live that manager applied: the fields its one
// Apply entry in managedFields owns (values as they are live), with the
// apiVersion, kind, name and namespace that identify the object. It is
// what a replace diff compares the manifest with, so that the defaults the
// server filled in, which it fills in again on the create, are not shown as
// removed. ok is false when manager has no single Apply entry (an object
// made by kubectl) or its field set cannot be read.
func ownedPart(live *unstructured.Unstructured, manager string) (map[string]any, bool) {
	var owned *metav1.ManagedFieldsEntry
	entries := live.GetManagedFields()
	for i, m := range entries {
		if m.Manager != manager || m.Operation != metav1.ManagedFieldsOperationApply || m.Subresource != "" {
			continue
		}
		if owned != nil {
			return nil, false
		}
		owned = &entries[i]
	}
	if owned == nil || owned.FieldsV1 == nil {
		return nil, false
	}
	var set map[string]any
	if err := json.Unmarshal(owned.FieldsV1.Raw, &set); err != nil {
		return nil, false
	}
	v, _ := project(live.Object, set)
	out, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	out["apiVersion"], out["kind"] = live.GetAPIVersion(), live.GetKind()
	md, _ := out["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		out["metadata"] = md
	}
	md["name"] = live.GetName()
	if ns := live.GetNamespace(); ns != "" {
		md["namespace"] = ns
	}
	return out, true
}

// project keeps of v what the managed-fields set node names: map fields
// (f:name), associative list items (k:{"name":"web"}), set items
// (v:"value") and items by index (i:3). A node without children (a leaf, an
// atomic map or list) keeps the whole value.
func project(v any, node map[string]any) (any, bool) {
	children := withoutSelf(node)
	if len(children) == 0 {
		return v, true
	}
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, sub := range children {
			name, ok := strings.CutPrefix(k, "f:")
			if !ok {
				continue
			}
			cv, ok := x[name]
			if !ok {
				continue
			}
			sm, _ := sub.(map[string]any)
			if pv, ok := project(cv, sm); ok {
				out[name] = pv
			}
		}
		return out, true
	case []any:
		out := []any{}
		for i, item := range x {
			for k, sub := range children {
				if !ownsItem(k, i, item) {
					continue
				}
				sm, _ := sub.(map[string]any)
				if pv, ok := project(item, sm); ok {
					out = append(out, pv)
				}
				break
			}
		}
		return out, true
	}
	return v, true
}

// ownsItem reports whether the set entry k names the list item at index i.
func ownsItem(k string, i int, item any) bool {
	switch {
	case strings.HasPrefix(k, "k:"):
		var key map[string]any
		m, ok := item.(map[string]any)
		if !ok || json.Unmarshal([]byte(k[2:]), &key) != nil {
			return false
		}
		for f, want := range key {
			if !sameValue(m[f], want) {
				return false
			}
		}
		return true
	case strings.HasPrefix(k, "v:"):
		var want any
		return json.Unmarshal([]byte(k[2:]), &want) == nil && sameValue(item, want)
	case strings.HasPrefix(k, "i:"):
		n, err := strconv.Atoi(k[2:])
		return err == nil && n == i
	}
	return false
}
