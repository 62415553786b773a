package healthexpr

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/ext"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Rules come from pull requests and are evaluated with the cluster's
// credentials at hand, so, as internal/guard's, they are untrusted: the
// text CEL parses is capped, and so is the cost of one evaluation (CEL
// counts every comparison and every element a macro visits) and its time.
const (
	// MaxExpressionLength is the longest expression, in characters.
	MaxExpressionLength = 4096
	// CostLimit is the most one evaluation of one expression may cost: a
	// rule over the conditions of an object costs tens of units.
	CostLimit = 20_000
	// interruptEvery is how many iterations of a macro run between two
	// looks at the time limit.
	interruptEvery = 100
)

// topLevel are the variables every expression sees: the top-level fields
// of a Kubernetes object, as Flux's expressions do.
var topLevel = []string{"apiVersion", "kind", "metadata", "spec", "status"}

// env is the environment every rule compiles in, built once (a cel.Env is
// safe for concurrent use).
var env = sync.OnceValues(func() (*cel.Env, error) {
	opts := []cel.EnvOption{
		ext.Strings(),
		ext.Sets(),
		ext.Encoders(),
		cel.OptionalTypes(),
		cel.CrossTypeNumericComparisons(true),
		cel.DefaultUTCTimeZone(true),
		cel.ParserExpressionSizeLimit(MaxExpressionLength),
		cel.Variable("apiVersion", cel.StringType),
		cel.Variable("kind", cel.StringType),
	}
	for _, v := range topLevel[2:] {
		opts = append(opts, cel.Variable(v, cel.MapType(cel.StringType, cel.DynType)))
	}
	return cel.NewEnv(opts...)
})

// Set is the compiled rules: the built-ins, each replaced by a rule of the
// same group and kind, and the user's others. A nil *Set is the built-ins
// alone.
type Set struct {
	byKind map[schema.GroupKind]*Compiled
	// matched are the built-ins about no one kind (match:), tried in order
	// for an object no rule of its kind is about.
	matched []*Compiled
}

// Compiled is one rule ready to evaluate.
type Compiled struct {
	Rule  Rule
	match cel.Program
	progs map[string]cel.Program // by key; only the keys the rule sets
	asts  map[string]*cel.Ast
}

// Compile checks and compiles rules over the built-ins: a syntax or type
// error, an expression that does not yield a bool, or two rules of one
// group and kind, is an error at the file:line:col of the expression (the
// column inside it). Every problem is reported, one line each.
func Compile(rules []Rule) (*Set, error) {
	s := &Set{byKind: map[schema.GroupKind]*Compiled{}}
	for _, c := range builtinCompiled() {
		if c.match != nil {
			s.matched = append(s.matched, c)
			continue
		}
		s.byKind[c.Rule.GroupKind()] = c
	}
	var errs []error
	seen := map[schema.GroupKind]Rule{}
	for _, r := range rules {
		gk := r.GroupKind()
		if first, ok := seen[gk]; ok {
			errs = append(errs, fmt.Errorf("%s: health rule %s: a rule for %s is already at %s: write one rule per kind", r.pos(""), gkString(gk), gkString(gk), first.pos("")))
			continue
		}
		seen[gk] = r
		c, err := compileRule(r)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		s.byKind[gk] = c
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return s, nil
}

// compileRule compiles every expression r sets.
func compileRule(r Rule) (*Compiled, error) {
	e, err := env()
	if err != nil {
		return nil, fmt.Errorf("health rules: CEL environment: %w", err)
	}
	c := &Compiled{Rule: r, progs: map[string]cel.Program{}, asts: map[string]*cel.Ast{}}
	var errs []error
	if r.match != "" {
		c.match, _, err = program(e, r, "match", r.match)
		errs = append(errs, err)
	}
	for _, key := range keys {
		text := r.expr(key)
		if text == "" {
			continue
		}
		prg, ast, err := program(e, r, key, text)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		c.progs[key], c.asts[key] = prg, ast
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return c, nil
}

// program compiles the text of key, which must yield a bool.
func program(e *cel.Env, r Rule, key, text string) (cel.Program, *cel.Ast, error) {
	what := "health rule " + gkString(r.GroupKind())
	if n := utf8.RuneCountInString(text); n > MaxExpressionLength {
		return nil, nil, fmt.Errorf("%s: %s: %s is %d characters, the limit is %d", r.pos(key), what, key, n, MaxExpressionLength)
	}
	ast, iss := e.Compile(text)
	if iss != nil && iss.Err() != nil {
		ce := iss.Errors()[0]
		msg := strings.TrimSuffix(ce.Message, " (in container '')")
		hint := "fix the expression (docs/health.md lists what it sees)"
		if strings.Contains(msg, "undeclared reference") {
			hint = "an expression sees the object's top-level fields: " + strings.Join(topLevel, ", ")
		}
		return nil, nil, fmt.Errorf("%s: %s: %s: %s: %s", r.exprPos(key, ce.Location.Line(), ce.Location.Column()), what, key, msg, hint)
	}
	if t := ast.OutputType(); !t.IsExactType(cel.BoolType) && !t.IsExactType(cel.DynType) {
		return nil, nil, fmt.Errorf("%s: %s: %s yields %s, want bool: write a condition that is true when the object is %s", r.pos(key), what, key, t, stateWord(key))
	}
	prg, err := e.Program(ast, cel.CostLimit(CostLimit), cel.InterruptCheckFrequency(interruptEvery), cel.EvalOptions(cel.OptOptimize))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %s: %s: %w", r.pos(key), what, key, err)
	}
	return prg, ast, nil
}

func stateWord(key string) string {
	switch key {
	case "inProgress":
		return "still progressing"
	case "failed":
		return "failed"
	case "match":
		return "one the rule is about"
	}
	return "healthy"
}

// For is the rule for obj: the rule of its group and kind, else the first
// built-in whose match is true for it; nil when none is.
func (s *Set) For(obj map[string]any) *Compiled {
	if s == nil {
		s = Builtins()
	}
	if s == nil {
		return nil
	}
	av, _ := obj["apiVersion"].(string)
	k, _ := obj["kind"].(string)
	gk := schema.FromAPIVersionAndKind(av, k).GroupKind()
	if c := s.byKind[gk]; c != nil {
		return c
	}
	if kubernetesGroup(gk.Group) {
		return nil // no built-in without a kind is about Kubernetes' own kinds
	}
	for _, c := range s.matched {
		if ok, err := c.eval(c.match, obj); err == nil && ok {
			return c
		}
	}
	return nil
}

// Kind is the rule of gk, nil when none is (a built-in about no one kind
// is not one).
func (s *Set) Kind(gk schema.GroupKind) *Compiled {
	if s == nil {
		s = Builtins()
	}
	if s == nil {
		return nil
	}
	return s.byKind[gk]
}

// kubernetesGroup reports whether group is one of Kubernetes' own: the
// core group, apps, batch, policy, autoscaling, or a *.k8s.io group.
func kubernetesGroup(group string) bool {
	switch group {
	case "", "apps", "batch", "policy", "autoscaling":
		return true
	}
	return strings.HasSuffix(group, ".k8s.io")
}
