package mutations

// selectors make a workload's selector miss its pod template's labels:
// a template label changed or removed, a selector label added, an
// expression that no longer matches. Jobs get a manual selector.
func selectors(g *gen) {
	spec, _ := g.base["spec"].(map[string]any)
	tmplPath := path{"spec", "template", "metadata", "labels"}
	selPath := path{"spec", "selector"}
	switch g.kind {
	case "Deployment", "StatefulSet", "DaemonSet":
	case "Job":
		for _, v := range []string{"other", "report-2"} {
			obj := set(g.base, path{"spec", "manualSelector"}, true)
			obj = set(obj, selPath, map[string]any{"matchLabels": map[string]any{"app": v}})
			g.add(SelectorMismatch, selPath, "manual selector app="+v, obj)
		}
		return
	default:
		return
	}
	if spec == nil {
		return
	}
	labels, _ := get(g.base, tmplPath)
	lm, _ := labels.(map[string]any)
	ml, _ := get(g.base, selPath.with("matchLabels"))
	for _, k := range sortedKeys(ml.(map[string]any)) {
		p := tmplPath.with(k)
		g.add(SelectorMismatch, p, "template label changed", set(g.base, p, "other"))
		g.add(SelectorMismatch, p, "template label removed", del(g.base, p))
		sp := selPath.with("matchLabels").with(k)
		g.add(SelectorMismatch, sp, "selector value changed", set(g.base, sp, "other"))
	}
	extra := selPath.with("matchLabels").with("release")
	g.add(SelectorMismatch, extra, "selector label added", set(g.base, extra, "canary"))
	var tk string
	for _, k := range sortedKeys(lm) {
		tk = k
	}
	exprs := selPath.with("matchExpressions")
	for _, e := range []map[string]any{
		{"key": tk, "operator": "NotIn", "values": []any{lm[tk]}},
		{"key": tk, "operator": "In", "values": []any{"nope"}},
		{"key": tk, "operator": "DoesNotExist"},
		{"key": "missing", "operator": "Exists"},
	} {
		g.add(SelectorMismatch, exprs, "expression "+e["operator"].(string)+" "+e["key"].(string), set(g.base, exprs, []any{e}))
	}
}
