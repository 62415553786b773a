package guard

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseConfig(t *testing.T) {
	text := `project: shop
guards:
  builtin: {protect-pvc: off, mass-prune: warn}
  rules:
    - name: no-statefulset-replace
      scope: change
      expression: change.action == 'replace' && change.kind == 'StatefulSet'
      outcome: require-approval
      message: replacing a StatefulSet recreates its pods
      messageExpression: "'replaces statefulset/' + change.name"
    - name: prod-prune
      expression: |
        change.action == 'prune' &&
        change.namespace.startsWith('prod-')
      outcome: deny
  files: [guards/, extra.yaml]
  approvals:
    github: {codeOwners: true, labels: [kubeplan/approved]}
`
	c, files, err := ParseConfig("kubeplan.yaml", guardsNode(t, text))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(files, []string{"guards/", "extra.yaml"}) {
		t.Errorf("files = %q", files)
	}
	if c.File != "kubeplan.yaml" || c.Builtin[ProtectPVC] != Off || c.Builtin[MassPrune] != Warn || c.BuiltinPos[MassPrune] != (Pos{3, 31}) {
		t.Errorf("builtin = %v at %v", c.Builtin, c.BuiltinPos)
	}
	if !c.Approvals.CodeOwners || !reflect.DeepEqual(c.Approvals.Labels, []string{"kubeplan/approved"}) || c.Approvals.Pos["labels"] != (Pos{18, 40}) {
		t.Errorf("approvals = %+v", c.Approvals)
	}
	if len(c.Rules) != 2 {
		t.Fatalf("rules = %+v", c.Rules)
	}
	r := c.Rules[0]
	want := Rule{Name: "no-statefulset-replace", Scope: ScopeChange, Expression: "change.action == 'replace' && change.kind == 'StatefulSet'",
		Outcome: RequireApproval, Message: "replacing a StatefulSet recreates its pods", MessageExpression: "'replaces statefulset/' + change.name",
		File: "kubeplan.yaml", At: Pos{5, 7},
		Pos: map[string]Pos{"name": {5, 13}, "scope": {6, 14}, "expression": {7, 19}, "outcome": {8, 16}, "message": {9, 16},
			"messageExpression": {10, 27}}} // after the quote
	if !reflect.DeepEqual(r, want) {
		t.Errorf("rule =\n%+v\nwant\n%+v", r, want)
	}
	// a block's text starts on the next line, two columns past the keys
	if p := c.Rules[1].Pos["expression"]; p != (Pos{13, 9}) {
		t.Errorf("block expression at %v, want 13:9", p)
	}
	if _, folded := c.Rules[1].Pos["expression"+FoldedSuffix]; folded {
		t.Error("a literal block marked folded")
	}
}

func TestParseRules(t *testing.T) {
	list := "- name: a\n  expression: 'true'\n  outcome: warn\n"
	mapping := "rules:\n    - name: a\n      expression: |\n          change.kind ==\n            'X'\n      outcome: warn\n"
	rs, err := ParseRules("guards/list.yaml", []byte(list))
	if err != nil || len(rs) != 1 || rs[0].Name != "a" || rs[0].File != "guards/list.yaml" || rs[0].Pos["expression"] != (Pos{2, 16}) {
		t.Fatalf("list: %+v %v", rs, err)
	}
	rs, err = ParseRules("guards/map.yaml", []byte(mapping))
	// the block's indentation is read from the file
	if err != nil || len(rs) != 1 || rs[0].Pos["expression"] != (Pos{4, 11}) || rs[0].Expression != "change.kind ==\n  'X'\n" {
		t.Fatalf("mapping: %+v %v", rs, err)
	}
	if rs, err := ParseRules("empty.yaml", nil); err != nil || rs != nil {
		t.Fatalf("empty: %v %v", rs, err)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ name, guards, want string }{
		{"unknown key", "guards:\n  rulez: []\n", `kubeplan.yaml:2:3: unknown key "rulez" in guards (see docs/guards.md)`},
		{"rules not a list", "guards:\n  rules: {name: a}\n", `kubeplan.yaml:2:10: guards.rules: want a list of rules, got a mapping`},
		{"unknown rule key", "guards:\n  rules:\n    - name: a\n      expresion: 'true'\n", `kubeplan.yaml:4:7: unknown key "expresion" in guards.rules[0] (see docs/guards.md)`},
		{"missing name", "guards:\n  rules:\n    - expression: 'true'\n      outcome: warn\n", `kubeplan.yaml:3:7: guards.rules[0]: a rule needs a name (which --approve NAME=REASON uses)`},
		{"missing expression", "guards:\n  rules:\n    - name: a\n      outcome: warn\n", `kubeplan.yaml:3:7: guards.rules[0]: rule a needs an expression: CEL that is true when the rule applies`},
		{"expression a list", "guards:\n  rules:\n    - name: a\n      expression: [x]\n", `kubeplan.yaml:4:19: guards.rules[0].expression: want a string, got a list`},
		{"rule a string", "guards:\n  rules: [a]\n", `kubeplan.yaml:2:11: guards.rules[0]: want a rule (a mapping with name, expression, outcome...), got "a"`},
		{"builtin a list", "guards:\n  builtin: [protect-pvc]\n", `kubeplan.yaml:2:12: guards.builtin: want a mapping of a built-in rule's name to deny, require-approval, warn or off, got a list`},
		{"builtin twice", "guards:\n  builtin:\n    protect-pvc: off\n    protect-pvc: warn\n", `kubeplan.yaml:4:5: key "protect-pvc" is given twice in guards.builtin`},
		{"codeOwners not bool", "guards:\n  approvals:\n    github: {codeOwners: yes}\n", `kubeplan.yaml:3:26: guards.approvals.github.codeOwners: want true or false, got "yes"`},
		{"files a string", "guards:\n  files: guards/\n", `kubeplan.yaml:2:10: guards.files: want a list of strings, got "guards/"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := ParseConfig("kubeplan.yaml", guardsNode(t, tc.guards))
			if err == nil || err.Error() != tc.want {
				t.Errorf("got  %v\nwant %s", err, tc.want)
			}
		})
	}
	_, err := ParseRules("guards/bad.yaml", []byte("rules:\n  - name: a\n    outcome: [warn]\n"))
	if err == nil || err.Error() != `guards/bad.yaml:3:14: rules[0].outcome: want a string, got a list` {
		t.Errorf("rules file: %v", err)
	}
	_, err = ParseRules("guards/bad.yaml", []byte("rules: [\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "guards/bad.yaml: yaml: ") {
		t.Errorf("bad yaml: %v", err)
	}
}
