package plan

import (
	"encoding/json"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// fieldsOf is the FieldsV1 of the live object's entries for which match
// says yes, but for the status: an autoscaler or kubectl scale owns
// spec.replicas through the scale subresource.
func fieldsOf(live *unstructured.Unstructured, match func(metav1.ManagedFieldsEntry) bool) []fieldSet {
	if live == nil {
		return nil
	}
	var out []fieldSet
	for _, m := range live.GetManagedFields() {
		if m.Subresource == "status" || m.FieldsV1 == nil || !match(m) {
			continue
		}
		var fs fieldSet
		if json.Unmarshal(m.FieldsV1.Raw, &fs) == nil {
			out = append(out, fs)
		}
	}
	return out
}

// ownFields is what manager's apply owns in live; nil when nothing.
func ownFields(live *unstructured.Unstructured, manager string) fieldSet {
	fs := fieldsOf(live, func(m metav1.ManagedFieldsEntry) bool {
		return m.Manager == manager && m.Operation == metav1.ManagedFieldsOperationApply && m.Subresource == ""
	})
	if len(fs) == 0 {
		return nil
	}
	return fs[0]
}

// dropOthers takes out of node (the object to apply, or a part of it)
// the fields other (another manager's fields at the same level) owns and
// own (kubeplan's) does not: applying without them leaves them to the
// other manager. A list item is taken out whole when nothing of it is
// left but its keys and kubeplan owns none of it. It returns the node to
// keep, or remove.
func dropOthers(node any, other, own fieldSet) (any, bool) {
	switch n := node.(type) {
	case map[string]any:
		for k, sub := range other {
			name, ok := strings.CutPrefix(k, "f:")
			if !ok {
				continue
			}
			child, ok := n[name]
			if !ok {
				continue
			}
			otherChild, _ := sub.(fieldSet)
			ownChild, owned := own[k].(fieldSet)
			if isLeaf(otherChild) {
				if !owned {
					delete(n, name)
				}
				continue
			}
			v, rm := dropOthers(child, otherChild, ownChild)
			if rm && !owned {
				delete(n, name)
			} else if !rm {
				n[name] = v
			}
		}
		return n, len(n) == 0
	case []any:
		kept := n[:0:0]
		for i, item := range n {
			otherKey, otherItem, ok := ownedItem(other, item, i)
			if !ok {
				kept = append(kept, item)
				continue
			}
			_, ownItem, owned := ownedItem(own, item, i)
			if owned && isLeaf(otherItem) {
				kept = append(kept, item)
				continue
			}
			if !owned && (isLeaf(otherItem) || strings.HasPrefix(otherKey, "v:")) {
				continue // a set item or a whole item the other manager made
			}
			v, _ := dropOthers(item, otherItem, ownItem)
			if !owned && onlyKeys(v, otherKey) {
				continue
			}
			kept = append(kept, v)
		}
		return kept, false
	}
	return node, false
}

// isLeaf reports whether fs owns a field with nothing under it: {} or
// only {".": {}}.
func isLeaf(fs fieldSet) bool {
	for k := range fs {
		if k != "." {
			return false
		}
	}
	return true
}

// onlyKeys reports whether item holds nothing but the keys its FieldsV1
// key k names.
func onlyKeys(item any, k string) bool {
	m, ok := item.(map[string]any)
	if !ok || !strings.HasPrefix(k, "k:") {
		return false
	}
	var keys map[string]any
	if json.Unmarshal([]byte(k[2:]), &keys) != nil {
		return false
	}
	for name := range m {
		if _, ok := keys[name]; !ok {
			return false
		}
	}
	return true
}
