package guard

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/google/cel-go/cel"
)

// Set is a compiled Config: the built-in rules with their outcomes (those
// switched off left out), then the user's rules.
type Set struct {
	// change and plan are the rules of each scope, in evaluation order,
	// once ready has run.
	change, plan []*compiled
	approvals    Approvals
	needsObjects bool
	needsPaths   bool
	// builtins are the built-in rules switched on, with their outcomes:
	// compiled on the set's first use (ready), before the user's rules,
	// so that a command that never judges a plan (lint) does not pay for
	// compiling them. They cannot fail to compile (TestBuiltinsCompile).
	builtins []pendingBuiltin
	once     sync.Once
	readyErr error
}

type pendingBuiltin struct {
	rule    Rule
	outcome Outcome
}

// ready compiles the built-in rules, once, and puts them before the
// user's.
func (s *Set) ready() error {
	s.once.Do(func() {
		user := &Set{}
		user.change, user.plan = s.change, s.plan
		s.change, s.plan = nil, nil
		for _, b := range s.builtins {
			cr, err := compileRule(b.rule, b.outcome, true)
			if err != nil {
				// a built-in that does not compile is a bug of kubeplan's
				s.readyErr = fmt.Errorf("guard: built-in rule %s: %w", b.rule.Name, err)
				return
			}
			s.add(cr)
		}
		s.change, s.plan = append(s.change, user.change...), append(s.plan, user.plan...)
	})
	return s.readyErr
}

// compiled is one rule ready to evaluate.
type compiled struct {
	rule    Rule
	outcome Outcome
	builtin bool
	at      string // "kubeplan.yaml:12:5", "" for a built-in
	expr    cel.Program
	msg     cel.Program // nil without a messageExpression
	// asts are the checked expressions, for what they read (Set.reads).
	asts []*cel.Ast
}

// ruleName is what a rule may be called: --approve NAME=REASON must be
// able to name it.
var ruleName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$`) })

// Compile checks and compiles c: a syntax or type error, an unknown
// outcome, scope or built-in name, or two rules of one name, is an error
// naming the rule's file:line:col. A nil or empty Config yields the
// built-in rules. Every problem is reported, joined in one error, one
// line each.
func Compile(c Config) (*Set, error) {
	s := &Set{approvals: c.Approvals}
	var errs []error
	for name := range c.Builtin {
		if _, ok := builtin(name); !ok {
			errs = append(errs, fmt.Errorf("%s: guards.builtin: no built-in rule %q: want one of %s", posOf(c.File, c.BuiltinPos[name]), name, builtinNames()))
		}
	}
	for _, b := range builtins {
		out, ok := c.Builtin[b.Name]
		if !ok {
			out = b.Outcome
		}
		switch out {
		case Off:
			continue
		case Deny, RequireApproval, Warn:
		default:
			errs = append(errs, fmt.Errorf("%s: guards.builtin.%s: outcome %q: want deny, require-approval, warn or off", posOf(c.File, c.BuiltinPos[b.Name]), b.Name, out))
			continue
		}
		s.builtins = append(s.builtins, pendingBuiltin{b, out})
	}
	seen := map[string]Rule{}
	for _, r := range c.Rules {
		if err := checkRule(r, seen); err != nil {
			errs = append(errs, err)
			continue
		}
		seen[r.Name] = r
		cr, err := compileRule(r, r.Outcome, false)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		s.add(cr)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return s, nil
}

func (s *Set) add(c *compiled) {
	if c.rule.Scope == ScopePlan {
		s.plan = append(s.plan, c)
	} else {
		s.change = append(s.change, c)
	}
	for _, a := range c.asts {
		s.reads(a)
	}
}

// checkRule checks what a user's rule says apart from its CEL.
func checkRule(r Rule, seen map[string]Rule) error {
	at := func(key string) string { return rulePos(r, key) }
	switch {
	case r.Name == "":
		return fmt.Errorf("%s: guard rule: name is missing: give the rule a name, which --approve NAME=REASON uses", at("name"))
	case !ruleName().MatchString(r.Name):
		return fmt.Errorf("%s: guard rule %q: name: want lower-case letters, digits, '-' and '.', starting and ending with a letter or digit", at("name"), r.Name)
	}
	if _, ok := builtin(r.Name); ok {
		return fmt.Errorf("%s: guard rule %s: the name is a built-in rule's: rename the rule, or set guards.builtin.%s to change the built-in", at("name"), r.Name, r.Name)
	}
	if first, ok := seen[r.Name]; ok {
		return fmt.Errorf("%s: guard rule %s: a rule of that name is already at %s: give each rule its own name", at("name"), r.Name, rulePos(first, "name"))
	}
	switch r.Scope {
	case "", ScopeChange, ScopePlan:
	default:
		return fmt.Errorf("%s: guard rule %s: scope %q: want change or plan", at("scope"), r.Name, r.Scope)
	}
	switch r.Outcome {
	case Deny, RequireApproval, Warn:
	case "":
		return fmt.Errorf("%s: guard rule %s: outcome is missing: want deny, require-approval or warn", at("outcome"), r.Name)
	default:
		return fmt.Errorf("%s: guard rule %s: outcome %q: want deny, require-approval or warn", at("outcome"), r.Name, r.Outcome)
	}
	if strings.TrimSpace(r.Expression) == "" {
		return fmt.Errorf("%s: guard rule %s: expression is missing: write CEL that is true when the rule applies", at("expression"), r.Name)
	}
	return nil
}

// compileRule compiles a rule's expression and messageExpression.
func compileRule(r Rule, out Outcome, isBuiltin bool) (*compiled, error) {
	e, err := envs()
	if err != nil {
		return nil, fmt.Errorf("guard: CEL environment: %w", err)
	}
	env := e[0]
	if r.Scope == ScopePlan {
		env = e[1]
	}
	c := &compiled{rule: r, outcome: out, builtin: isBuiltin}
	if !isBuiltin {
		c.at = rulePos(r, "")
	}
	if r.Scope == "" {
		c.rule.Scope = ScopeChange
	}
	prg, ast, err := program(env, r, "expression", r.Expression, cel.BoolType)
	if err != nil {
		return nil, err
	}
	c.expr = prg
	asts := []*cel.Ast{ast}
	if r.MessageExpression != "" {
		prg, ast, err := program(env, r, "messageExpression", r.MessageExpression, cel.StringType)
		if err != nil {
			return nil, err
		}
		c.msg = prg
		asts = append(asts, ast)
	}
	c.asts = asts
	return c, nil
}

// program compiles one expression of r (key names it) that must yield
// want.
func program(env *cel.Env, r Rule, key, text string, want *cel.Type) (cel.Program, *cel.Ast, error) {
	if n := utf8.RuneCountInString(text); n > MaxExpressionLength {
		return nil, nil, fmt.Errorf("%s: guard rule %s: %s is %d characters, the limit is %d: split the rule in two", rulePos(r, key), r.Name, key, n, MaxExpressionLength)
	}
	ast, iss := env.Compile(text)
	if iss != nil && iss.Err() != nil {
		e := iss.Errors()[0]
		hint := "fix the expression (docs/guards.md lists the variables and their fields)"
		if r.Scope == ScopePlan && strings.Contains(e.Message, "undeclared reference to 'change'") {
			hint = "a plan rule sees only plan; write scope: change for a rule over each change"
		}
		msg := strings.TrimSuffix(e.Message, " (in container '')")
		return nil, nil, fmt.Errorf("%s: guard rule %s: %s: %s: %s", exprPos(r, key, text, e.Location.Line(), e.Location.Column()), r.Name, key, msg, hint)
	}
	// An expression over before or after is dyn: it can only be checked
	// when it runs (Evaluate).
	if t := ast.OutputType(); !t.IsExactType(want) && !t.IsExactType(cel.DynType) {
		return nil, nil, fmt.Errorf("%s: guard rule %s: %s yields %s, want %s: %s", rulePos(r, key), r.Name, key, ast.OutputType(), want, wantHint(want))
	}
	prg, err := env.Program(ast, cel.CostLimit(CostLimit), cel.InterruptCheckFrequency(interruptEvery), cel.EvalOptions(cel.OptOptimize))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: guard rule %s: %s: %w", rulePos(r, key), r.Name, key, err)
	}
	return prg, ast, nil
}

func wantHint(want *cel.Type) string {
	if want == cel.BoolType {
		return "write a condition that is true when the rule applies"
	}
	return "write an expression that builds the message, such as 'replaces ' + change.name"
}
