package mutations

import "strings"

// badNames are not DNS-1123 subdomains (nor labels).
var badNames = []string{"Frontend_App", "-web", "web.", "web app", strings.Repeat("a", 254),
	strings.Repeat("a", 64), "web.v2", "1web", "web-v2", strings.Repeat("a", 63)} // the last two are valid

// badLabelValues are not label values.
var badLabelValues = []string{"bad value!", "-edge", strings.Repeat("v", 64), "", "a.b_c-D"}

// badKeys are not qualified names (label and annotation keys).
var badKeys = []string{"a/b/c", "Bad Key", "example.com/", "-dash", "Example.com/x", "x/" + strings.Repeat("k", 64)}

// names puts invalid names, label values and keys where they go: the
// object's name, labels and annotations, the pod template's labels, the
// names of containers, ports and volumes.
func names(g *gen) {
	for _, n := range g.nodes {
		s, isString := n.v.(string)
		last := n.p.last()
		parentKey := ""
		if len(n.p) >= 2 {
			parentKey, _ = n.p[len(n.p)-2].(string)
		}
		switch {
		case len(n.p) == 2 && n.p[0] == "metadata" && last == "name":
			for _, b := range badNames {
				g.add(InvalidName, n.p, "name "+quote(short(b)), set(g.base, n.p, b))
			}
		case isString && (parentKey == "labels" || parentKey == "matchLabels"):
			for _, b := range badLabelValues {
				g.add(InvalidName, n.p, "label value "+quote(short(b)), set(g.base, n.p, b))
			}
			for _, k := range badKeys {
				g.add(InvalidName, n.p, "label key "+quote(k), renameKey(g.base, n.p, k))
			}
		case isString && parentKey == "annotations":
			for _, k := range badKeys {
				g.add(InvalidName, n.p, "annotation key "+quote(k), renameKey(g.base, n.p, k))
			}
		case isString && last == "name" && len(n.p) >= 3 && nameOfItem(n.p):
			for _, b := range []string{"Web_1", "web.1", "http-alt-port-name-too-long", "-x", "", "9090", strings.Repeat("c", 64)} {
				g.add(InvalidName, n.p, "item name "+quote(b), set(g.base, n.p, b))
			}
		}
		_ = s
	}
}

// nameOfItem reports whether p is the name of a container, a port or a
// volume: .../containers[i].name and the like.
func nameOfItem(p path) bool {
	if _, ok := p[len(p)-2].(int); !ok {
		return false
	}
	switch p[len(p)-3] {
	case "containers", "initContainers", "ports", "volumes":
		return true
	}
	return false
}

// renameKey returns a copy of obj with the map key at p renamed to k.
func renameKey(obj map[string]any, p path, k string) map[string]any {
	return edit(obj, p, func(parent, last any) {
		if m, ok := parent.(map[string]any); ok {
			v := m[last.(string)]
			delete(m, last.(string))
			m[k] = v
		}
	})
}

func short(s string) string {
	if len(s) > 20 {
		return s[:8] + "...(" + itoa(int64(len(s))) + " chars)"
	}
	return s
}

// duplicates gives a second item of a named list the name of the first:
// containers (and an init container named as a container), ports, volumes,
// env vars, volume mounts (by mount path).
func duplicates(g *gen) {
	for _, n := range g.nodes {
		l, ok := n.v.([]any)
		if !ok || len(n.p) == 0 {
			continue
		}
		key := "name"
		switch n.p.last() {
		case "containers", "ports", "volumes", "env":
		case "volumeMounts":
			key = "mountPath"
		case "initContainers":
			containers, _ := get(g.base, n.p[:len(n.p)-1].with("containers"))
			first, _ := first(containers)["name"].(string)
			g.add(DuplicateName, n.p.with(0).with("name"), "init container named "+quote(first),
				set(g.base, n.p.with(0).with("name"), first))
			continue
		default:
			continue
		}
		f := first(l)
		name, ok := f[key].(string)
		if !ok {
			continue
		}
		if len(l) >= 2 {
			g.add(DuplicateName, n.p.with(1).with(key), "second item named "+quote(name), set(g.base, n.p.with(1).with(key), name))
		}
		if n.p.last() == "containers" {
			g.add(DuplicateName, n.p, "first container copied", set(g.base, n.p, append(deepCopy(l).([]any), deepCopy(f))))
		}
	}
}

func first(v any) map[string]any {
	if l, ok := v.([]any); ok && len(l) > 0 {
		m, _ := l[0].(map[string]any)
		return m
	}
	return nil
}
