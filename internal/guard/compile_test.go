package guard

import (
	"strings"
	"testing"
)

func TestCompileErrors(t *testing.T) {
	for _, tc := range []struct{ name, guards, want string }{
		{"typo in a field, plain scalar",
			"guards:\n  rules:\n    - name: sts\n      expression: change.action == 'replace' && change.kidn == 'StatefulSet'\n      outcome: warn\n",
			"kubeplan.yaml:4:55: guard rule sts: expression: undefined field 'kidn': fix the expression (docs/guards.md lists the variables and their fields)"},
		{"syntax error, quoted scalar",
			"guards:\n  rules:\n    - name: sts\n      expression: \"change.kind == = 'X'\"\n      outcome: warn\n",
			"kubeplan.yaml:4:35: guard rule sts: expression: Syntax error: token recognition error at: '= ': fix the expression (docs/guards.md lists the variables and their fields)"},
		{"error on the second line of a block",
			"guards:\n  rules:\n    - name: sts\n      expression: |\n        change.kind == 'StatefulSet' &&\n          change.nmae == 'db'\n      outcome: warn\n",
			"kubeplan.yaml:6:17: guard rule sts: expression: undefined field 'nmae': fix the expression (docs/guards.md lists the variables and their fields)"},
		{"folded block: at its start",
			"guards:\n  rules:\n    - name: sts\n      expression: >-\n        change.kind == 'StatefulSet' &&\n          change.nmae == 'db'\n      outcome: warn\n",
			"kubeplan.yaml:5:9: guard rule sts: expression: undefined field 'nmae': fix the expression (docs/guards.md lists the variables and their fields)"},
		{"hidden field",
			"guards:\n  rules:\n    - {name: o, expression: \"change.Object == ''\", outcome: warn}\n",
			"kubeplan.yaml:3:36: guard rule o: expression: undefined field 'Object': fix the expression (docs/guards.md lists the variables and their fields)"},
		{"not a bool",
			"guards:\n  rules:\n    - name: n\n      expression: change.name\n      outcome: warn\n",
			"kubeplan.yaml:4:19: guard rule n: expression yields string, want bool: write a condition that is true when the rule applies"},
		{"message not a string",
			"guards:\n  rules:\n    - name: n\n      expression: 'true'\n      messageExpression: plan.members\n      outcome: warn\n",
			"kubeplan.yaml:5:26: guard rule n: messageExpression yields int, want string: write an expression that builds the message, such as 'replaces ' + change.name"},
		{"plan rule reads change",
			"guards:\n  rules:\n    - name: p\n      scope: plan\n      expression: change.action == 'prune'\n      outcome: deny\n",
			"kubeplan.yaml:5:19: guard rule p: expression: undeclared reference to 'change': a plan rule sees only plan; write scope: change for a rule over each change"},
		{"unknown outcome",
			"guards:\n  rules:\n    - name: n\n      expression: 'true'\n      outcome: block\n",
			`kubeplan.yaml:5:16: guard rule n: outcome "block": want deny, require-approval or warn`},
		{"missing outcome",
			"guards:\n  rules:\n    - name: n\n      expression: 'true'\n",
			`kubeplan.yaml:3:7: guard rule n: outcome is missing: want deny, require-approval or warn`},
		{"unknown scope",
			"guards:\n  rules:\n    - name: n\n      scope: object\n      expression: 'true'\n      outcome: warn\n",
			`kubeplan.yaml:4:14: guard rule n: scope "object": want change or plan`},
		{"duplicate name",
			"guards:\n  rules:\n    - {name: n, expression: 'true', outcome: warn}\n    - {name: n, expression: 'false', outcome: deny}\n",
			"kubeplan.yaml:4:14: guard rule n: a rule of that name is already at kubeplan.yaml:3:14: give each rule its own name"},
		{"name of a built-in",
			"guards:\n  rules:\n    - {name: protect-pvc, expression: 'true', outcome: warn}\n",
			"kubeplan.yaml:3:14: guard rule protect-pvc: the name is a built-in rule's: rename the rule, or set guards.builtin.protect-pvc to change the built-in"},
		{"name --approve cannot say",
			"guards:\n  rules:\n    - {name: 'a=b', expression: 'true', outcome: warn}\n",
			`kubeplan.yaml:3:15: guard rule "a=b": name: want lower-case letters, digits, '-' and '.', starting and ending with a letter or digit`},
		{"unknown built-in",
			"guards:\n  builtin: {protect-pv: off}\n",
			`kubeplan.yaml:2:13: guards.builtin: no built-in rule "protect-pv": want one of protect-pvc, protect-namespace, protect-crd, mass-prune`},
		{"bad built-in outcome",
			"guards:\n  builtin:\n    mass-prune: false\n",
			`kubeplan.yaml:3:5: guards.builtin.mass-prune: outcome "false": want deny, require-approval, warn or off`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := compileYAML(t, tc.guards)
			if err == nil || err.Error() != tc.want {
				t.Errorf("got  %v\nwant %s", err, tc.want)
			}
		})
	}
}

// Every problem is reported, one line each, at its value (the CEL error
// at the unknown name).
func TestCompileJoinsErrors(t *testing.T) {
	_, err := compileYAML(t, "guards:\n  builtin: {nope: warn}\n  rules:\n    - {name: a, expression: 'true', outcome: nope}\n    - {name: b, expression: 'chnge', outcome: warn}\n")
	if err == nil {
		t.Fatal("no error")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "kubeplan.yaml:2:13: ") || !strings.HasPrefix(lines[1], "kubeplan.yaml:4:46: ") || !strings.HasPrefix(lines[2], "kubeplan.yaml:5:30: ") {
		t.Errorf("errors:\n%v", err)
	}
}

// A hostile rule from a pull request cannot make the runner parse or run
// without bound.
func TestCompileLengthCap(t *testing.T) {
	long := "change.name == '" + strings.Repeat("a", MaxExpressionLength) + "'"
	_, err := Compile(Config{Rules: []Rule{{Name: "long", Expression: long, Outcome: Warn, File: "guards/x.yaml", Pos: map[string]Pos{"expression": {3, 17}}}}})
	want := "guards/x.yaml:3:17: guard rule long: expression is 4113 characters, the limit is 4096: split the rule in two"
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	ok := "change.name == '" + strings.Repeat("a", MaxExpressionLength-17) + "'"
	if _, err := Compile(Config{Rules: []Rule{{Name: "ok", Expression: ok, Outcome: Warn}}}); err != nil {
		t.Errorf("an expression of %d characters: %v", len(ok), err)
	}
}

func TestCompileBuiltins(t *testing.T) {
	for _, tc := range []struct {
		name, guards string
		change, plan []string // rule names in order
	}{
		{"none configured", "guards: {}\n", []string{ProtectPVC, ProtectNamespace, ProtectCRD}, []string{MassPrune}},
		{"one off", "guards:\n  builtin: {protect-namespace: off}\n", []string{ProtectPVC, ProtectCRD}, []string{MassPrune}},
		{"all off, a user rule", "guards:\n  builtin: {protect-pvc: off, protect-namespace: off, protect-crd: off, mass-prune: off}\n  rules:\n    - {name: a, expression: 'true', outcome: warn}\n    - {name: b, scope: plan, expression: 'true', outcome: warn}\n",
			[]string{"a"}, []string{"b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mustCompile(t, tc.guards)
			if err := s.ready(); err != nil {
				t.Fatal(err)
			}
			if got := names(s.change); strings.Join(got, ",") != strings.Join(tc.change, ",") {
				t.Errorf("change rules %v, want %v", got, tc.change)
			}
			if got := names(s.plan); strings.Join(got, ",") != strings.Join(tc.plan, ",") {
				t.Errorf("plan rules %v, want %v", got, tc.plan)
			}
		})
	}
	// Compile of an empty Config yields the built-ins.
	s, err := Compile(Config{})
	if err == nil {
		err = s.ready()
	}
	if err != nil || len(s.change) != 3 || len(s.plan) != 1 {
		t.Fatalf("empty config: %v", err)
	}
}

func names(cs []*compiled) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.rule.Name)
	}
	return out
}

func TestNeeds(t *testing.T) {
	for _, tc := range []struct {
		expr           string
		objects, paths bool
	}{
		{"change.kind == 'Service'", false, false},
		{"change.paths.exists(p, p.startsWith('spec.selector'))", false, true},
		{"change.after.?spec.?type.orValue('') == 'LoadBalancer'", true, false},
		{"has(change.before.metadata)", true, false},
		{"[change].exists(c, c.kind == 'X')", true, true}, // change as a whole: anything
	} {
		s := mustCompile(t, "guards:\n  rules:\n    - name: r\n      outcome: warn\n      expression: \""+tc.expr+"\"\n")
		if s.NeedsObjects() != tc.objects || s.NeedsPaths() != tc.paths {
			t.Errorf("%s: NeedsObjects %v NeedsPaths %v, want %v %v", tc.expr, s.NeedsObjects(), s.NeedsPaths(), tc.objects, tc.paths)
		}
	}
	// The built-ins read neither.
	if s := mustCompile(t, "guards: {}\n"); s.NeedsObjects() || s.NeedsPaths() {
		t.Error("the built-ins need objects or paths")
	}
	// A messageExpression counts.
	s := mustCompile(t, "guards:\n  rules:\n    - {name: r, outcome: warn, expression: 'true', messageExpression: \"change.paths.join(', ')\"}\n")
	if !s.NeedsPaths() {
		t.Error("a messageExpression over paths does not need paths")
	}
}

// TestBuiltinsCompile: the built-in rules are compiled on a set's first use
// (Set.ready), where an error could only be kubeplan's; each compiles at
// each outcome, and before it, a set has not compiled them.
func TestBuiltinsCompile(t *testing.T) {
	for _, out := range []Outcome{Deny, RequireApproval, Warn} {
		c := Config{Builtin: map[string]Outcome{}}
		for _, b := range builtins {
			c.Builtin[b.Name] = out
		}
		s, err := Compile(c)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.change)+len(s.plan) != 0 || len(s.builtins) != len(builtins) {
			t.Fatalf("%s: compiled before first use: %d rules, %d pending", out, len(s.change)+len(s.plan), len(s.builtins))
		}
		if err := s.ready(); err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		for _, b := range builtins {
			if !s.Has(b.Name) {
				t.Errorf("%s: built-in %s missing once ready", out, b.Name)
			}
		}
	}
}
