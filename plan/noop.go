package plan

import (
	"encoding/json"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// proofsOff makes every plan dry-run every object (set by tests only, to
// check alreadyApplied against the server).
var proofsOff bool

// alreadyApplied reports whether applying want with manager would change
// nothing in live, so that its dry-run can be skipped. It holds when:
//   - manager has exactly one Apply entry in live's managedFields, for
//     want's apiVersion and no subresource;
//   - the fields that entry owns are exactly the fields want sets (so no
//     field dropped from the manifests would be removed by the apply);
//   - live holds want's value for every one of those fields.
//
// Then a server-side apply of want is a no-op: same owned fields, same
// values. Anything this function cannot prove (a value the server
// normalizes, such as cpu "0.5" kept as "500m"; set-like lists; a field
// owned by someone else with another value) gives false, and the caller
// falls back to the dry-run, which is always right. So false negatives cost
// one request; there are no false positives by construction.
func alreadyApplied(want map[string]any, live *unstructured.Unstructured, manager string) bool {
	if live == nil {
		return false
	}
	apiVersion, _ := want["apiVersion"].(string)
	ownedVersion, set, ok := appliedSet(live.Object, manager)
	if !ok || ownedVersion != apiVersion {
		return false
	}
	return coversMap(want, live.Object, set, topLevel)
}

// appliedSet is the field set manager owns through apply (not on a
// subresource) in a live object's managedFields, and its apiVersion, read
// from the decoded object as it is: no conversion to ManagedFieldsEntry and
// no JSON round trip of fieldsV1, which a round over thousands of objects
// would pay for every one. ok is false when manager has no such entry, or
// more than one.
func appliedSet(live map[string]any, manager string) (apiVersion string, set map[string]any, ok bool) {
	md, _ := live["metadata"].(map[string]any)
	entries, _ := md["managedFields"].([]any)
	found := false
	for _, e := range entries {
		m, _ := e.(map[string]any)
		if mgr, _ := m["manager"].(string); mgr != manager {
			continue
		}
		if op, _ := m["operation"].(string); op != string(metav1.ManagedFieldsOperationApply) {
			continue
		}
		if sub, _ := m["subresource"].(string); sub != "" {
			continue
		}
		if found {
			return "", nil, false
		}
		found = true
		apiVersion, _ = m["apiVersion"].(string)
		set, _ = m["fieldsV1"].(map[string]any)
	}
	return apiVersion, set, found && set != nil
}

// Fields the API server strips from every managed-fields set: they identify
// the object rather than belong to a manager.
var (
	topLevel      = map[string]bool{"apiVersion": true, "kind": true}
	metadataLevel = map[string]bool{"name": true, "namespace": true}
)

// coversMap checks a map of want against the live map and the owned set
// node for it. skip names keys that are never in a set (at the top level
// and in metadata); it is nil below them.
func coversMap(want map[string]any, live any, node map[string]any, skip map[string]bool) bool {
	lm, ok := live.(map[string]any)
	if !ok {
		return false
	}
	children := 0
	for k := range node {
		if k == "." {
			continue
		}
		if !strings.HasPrefix(k, "f:") {
			return false
		}
		children++
	}
	if children == 0 && skip == nil {
		// An atomic map (a label selector), an empty one, or one owned
		// as a whole: equal values are all that matters.
		return sameValue(want, lm)
	}
	n := 0
	for k, wv := range want {
		if skip[k] {
			continue
		}
		var next map[string]bool
		if skip != nil && k == "metadata" {
			next = metadataLevel
			if wm, ok := wv.(map[string]any); ok && !hasOwnKeys(wm, next) {
				if _, owned := node["f:metadata"]; !owned {
					continue // only name and namespace: nothing in the set
				}
			}
		}
		n++
		lv, ok := lm[k]
		if !ok || wv == nil {
			return false
		}
		sub, ok := node["f:"+k].(map[string]any)
		if !ok {
			return false
		}
		if !covers(wv, lv, sub, next) {
			return false
		}
	}
	return n == children
}

func hasOwnKeys(m map[string]any, skip map[string]bool) bool {
	for k := range m {
		if !skip[k] {
			return true
		}
	}
	return false
}

// covers checks one value of want against live and its owned set node.
func covers(want, live any, node map[string]any, skip map[string]bool) bool {
	switch w := want.(type) {
	case map[string]any:
		return coversMap(w, live, node, skip)
	case []any:
		return coversList(w, live, node)
	default:
		return len(withoutSelf(node)) == 0 && sameValue(want, live)
	}
}

func withoutSelf(node map[string]any) map[string]any {
	if _, ok := node["."]; !ok {
		return node
	}
	out := make(map[string]any, len(node))
	for k, v := range node {
		if k != "." {
			out[k] = v
		}
	}
	return out
}

// coversList checks a list: atomic lists (no item entries in the set) by
// value, associative lists (k:{...} entries) item by item, matched by key.
// Set-like lists (v: entries) and lists by index are left to the dry-run.
func coversList(want []any, live any, node map[string]any) bool {
	ll, ok := live.([]any)
	if !ok {
		return false
	}
	items := withoutSelf(node)
	if len(items) == 0 {
		return sameValue(want, ll)
	}
	if len(items) != len(want) {
		return false
	}
	type keyed struct {
		key  map[string]any
		node map[string]any
	}
	var entries []keyed
	for k, v := range items {
		sub, ok := v.(map[string]any)
		if !ok || !strings.HasPrefix(k, "k:") {
			return false
		}
		var key map[string]any
		if err := json.Unmarshal([]byte(k[2:]), &key); err != nil {
			return false
		}
		entries = append(entries, keyed{key, sub})
	}
	used := make([]bool, len(entries))
	lastLive := -1
	for _, wi := range want {
		wm, ok := wi.(map[string]any)
		if !ok {
			return false
		}
		match := -1
		for e, ent := range entries {
			if !used[e] && keyAgrees(wm, ent.key) {
				if match >= 0 {
					return false // ambiguous
				}
				match = e
			}
		}
		if match < 0 {
			return false
		}
		used[match] = true
		li := liveItem(ll, entries[match].key)
		if li < 0 || li < lastLive {
			return false // absent, or the apply would reorder the list
		}
		lastLive = li
		// Key fields the manifest left out (a port's protocol, defaulted
		// to TCP) are in the key but not owned as fields: not counted.
		if !coversMap(wm, ll[li], entries[match].node, nil) {
			return false
		}
	}
	return true
}

// keyAgrees reports whether the item's own values agree with every key
// field it sets.
func keyAgrees(item, key map[string]any) bool {
	for k, kv := range key {
		if v, ok := item[k]; ok && !sameValue(v, kv) {
			return false
		}
	}
	return true
}

// liveItem is the index of the live item whose key fields equal key, or -1.
func liveItem(items []any, key map[string]any) int {
	found := -1
	for i, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			continue
		}
		all := true
		for k, kv := range key {
			if v, ok := m[k]; !ok || !sameValue(v, kv) {
				all = false
				break
			}
		}
		if all {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// sameValue compares two values in canonical form (3 == 3.0).
func sameValue(a, b any) bool {
	return equalValue(canon(a), canon(b))
}
