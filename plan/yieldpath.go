package plan

import (
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeplan/kubeplan/internal/config"
)

// fieldSet is a managedFields entry's FieldsV1 as JSON: "f:name" for a
// field, "k:{...}" for a list item by its keys, "v:..." for a set item by
// value, "i:N" for an item by position, "." for the node itself.
type fieldSet = map[string]any

// yieldPath leaves the fields path names in node (the object to apply)
// to their other managers: each is taken out, unless own (kubeplan's own
// fields at the same level; ownHere says kubeplan owns the node itself)
// still holds it: then live's value is sent instead, which changes
// nothing, and the other controller takes the field over the first time
// it writes it. It returns the node to keep, or remove.
func yieldPath(node any, own fieldSet, ownHere bool, live any, path config.YieldPath) (out any, remove bool) {
	if len(path) == 0 {
		if ownHere && live != nil {
			return runtime.DeepCopyJSONValue(live), false
		}
		return nil, true
	}
	s := path[0]
	if !s.IsItem() {
		m, ok := node.(map[string]any)
		if !ok {
			return node, false
		}
		child, ok := m[s.Field]
		if !ok {
			return node, false
		}
		ownChild, owned := own["f:"+s.Field].(fieldSet)
		liveMap, _ := live.(map[string]any)
		v, rm := yieldPath(child, ownChild, owned, liveMap[s.Field], path[1:])
		if rm {
			delete(m, s.Field)
		} else {
			m[s.Field] = v
		}
		return m, false
	}
	l, ok := node.([]any)
	if !ok {
		return node, false
	}
	liveList, _ := live.([]any)
	kept := l[:0:0]
	for i, item := range l {
		if !s.All && !itemHas(item, s.Key, s.Value) {
			kept = append(kept, item)
			continue
		}
		ownKey, ownItem, owned := ownedItem(own, item, i)
		v, rm := yieldPath(item, ownItem, owned, liveListItem(liveList, ownKey, i), path[1:])
		if !rm {
			kept = append(kept, v)
		}
	}
	return kept, false
}

// itemHas reports whether a list item's field key is value (numbers and
// booleans as written).
func itemHas(item any, key, value string) bool {
	m, ok := item.(map[string]any)
	if !ok {
		return false
	}
	v, ok := m[key]
	if !ok {
		if d, ok := keyDefaults[key]; ok {
			v = d
		} else {
			return false
		}
	}
	return fmt.Sprint(v) == value
}

// ownedItem finds the entry of own for item, the i-th item of its list:
// by its keys ("k:"), its value ("v:") or position ("i:"). key is the
// entry's name.
func ownedItem(own fieldSet, item any, i int) (key string, fs fieldSet, ok bool) {
	for k, v := range own {
		if itemMatches(k, item, i) {
			fs, _ := v.(fieldSet)
			return k, fs, true
		}
	}
	return "", nil, false
}

// itemMatches reports whether the FieldsV1 key k names item, the i-th
// item of its list.
func itemMatches(k string, item any, i int) bool {
	switch {
	case strings.HasPrefix(k, "k:"):
		var keys map[string]any
		if json.Unmarshal([]byte(k[2:]), &keys) != nil {
			return false
		}
		m, ok := item.(map[string]any)
		if !ok {
			return false
		}
		for name, want := range keys {
			got, ok := m[name]
			if !ok {
				got, ok = keyDefaults[name]
			}
			if !ok || !sameJSON(got, want) {
				return false
			}
		}
		return true
	case strings.HasPrefix(k, "v:"):
		var want any
		return json.Unmarshal([]byte(k[2:]), &want) == nil && sameJSON(item, want)
	case strings.HasPrefix(k, "i:"):
		return k == fmt.Sprintf("i:%d", i)
	}
	return false
}

// liveListItem is the item of the live list that the FieldsV1 key names; nil
// when none.
func liveListItem(live []any, key string, i int) any {
	if key == "" {
		return nil
	}
	for j, item := range live {
		if itemMatches(key, item, j) {
			return item
		}
	}
	return nil
}

// sameJSON compares two JSON values as JSON (an int64 80 is a float64 80).
func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}
