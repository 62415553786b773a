package guard

// BuiltinRules returns the built-in rules, in the order they are
// evaluated (a copy: changing it changes nothing).
func BuiltinRules() []Rule { return append([]Rule(nil), builtins...) }

// builtins are the built-in rules, in the order they are evaluated: each
// requires an approval unless the configuration changes its outcome
// (Config.Builtin) or switches it off. They are CEL like a user's rules,
// so docs/guards.md shows them as they are and a team can copy one to
// tighten it.
var builtins = []Rule{
	{
		Name:       ProtectPVC,
		Scope:      ScopeChange,
		Expression: `change.action in ['prune', 'replace'] && change.group == '' && change.kind == 'PersistentVolumeClaim'`,
		Outcome:    RequireApproval,
		MessageExpression: `(change.action == 'prune' ? 'prunes' : 'replaces') + ' persistentvolumeclaim/' + change.name +
  ' in namespace ' + change.namespace + ": the volume's data may be deleted with it"`,
	},
	{
		Name:       ProtectNamespace,
		Scope:      ScopeChange,
		Expression: `change.action in ['prune', 'replace'] && change.group == '' && change.kind == 'Namespace'`,
		Outcome:    RequireApproval,
		MessageExpression: `(change.action == 'prune' ? 'prunes' : 'replaces') + ' namespace/' + change.name +
  ': every object in the namespace is deleted with it'`,
	},
	{
		Name:  ProtectCRD,
		Scope: ScopeChange,
		Expression: `change.action in ['prune', 'replace'] && change.group == 'apiextensions.k8s.io' &&
  change.kind == 'CustomResourceDefinition'`,
		Outcome: RequireApproval,
		MessageExpression: `(change.action == 'prune' ? 'prunes' : 'replaces') + ' customresourcedefinition.apiextensions.k8s.io/' + change.name +
  ': every custom resource of that kind is deleted with it'`,
	},
	{
		Name:       MassPrune,
		Scope:      ScopePlan,
		Expression: `plan.members > 0 && plan.prunedFraction > 0.5`,
		Outcome:    RequireApproval,
		MessageExpression: `'prunes ' + string(plan.counts['prune']) + ' of the ' + string(plan.members) +
  ' members of the set (' + string(int(plan.prunedFraction * 100.0 + 0.5)) + '%)'`,
	},
}

// builtin returns the built-in rule of that name.
func builtin(name string) (Rule, bool) {
	for _, r := range builtins {
		if r.Name == name {
			return r, true
		}
	}
	return Rule{}, false
}
