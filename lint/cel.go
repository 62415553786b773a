package lint

import (
	"fmt"
	"strings"
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/ext"
)

// celPrograms caches compiled x-kubernetes-validations rules. A rule that
// does not compile with the standard CEL library (it may use a Kubernetes
// library function kubeplan does not have) is remembered as nil and skipped.
var celPrograms sync.Map // rule -> cel.Program or nil

var celEnv = sync.OnceValues(func() (*cel.Env, error) {
	return cel.NewEnv(
		cel.Variable("self", cel.DynType),
		ext.Strings(), ext.Lists(), ext.Sets(), ext.Math(), ext.Encoders(),
		cel.OptionalTypes(),
	)
})

func celProgram(rule string) cel.Program {
	if p, ok := celPrograms.Load(rule); ok {
		prg, _ := p.(cel.Program)
		return prg
	}
	var prg cel.Program
	if env, err := celEnv(); err == nil {
		if ast, iss := env.Compile(rule); iss.Err() == nil {
			prg, _ = env.Program(ast, cel.CostLimit(1_000_000))
		}
	}
	celPrograms.Store(rule, prg)
	return prg
}

// celViolation is a failed x-kubernetes-validations rule.
type celViolation struct {
	path    []string
	message string
}

// celNode is the part of a CRD schema that holds x-kubernetes-validations
// rules: a node's own rules, compiled, and the children that hold rules.
// Subtrees without rules are not kept, so a CRD's compiled rules cost a
// few nodes however large its schema is.
type celNode struct {
	rules []celRule
	props map[string]*celNode
	addl  *celNode
	items *celNode
}

// celRule is one rule with its program (shared, by rule text, by every
// schema of every run: celProgram).
type celRule struct {
	prg       cel.Program
	rule      string
	message   string
	fieldPath []string
}

// buildCEL compiles the rules of the openAPIV3Schema s; nil when it has
// none. Transition rules (oldSelf) need the live object and are left to
// plan; rules that do not compile are skipped.
func buildCEL(s map[string]any) *celNode {
	if s == nil {
		return nil
	}
	n := &celNode{}
	if rules, ok := s["x-kubernetes-validations"].([]any); ok {
		for _, r := range rules {
			rm, _ := r.(map[string]any)
			rule, _ := rm["rule"].(string)
			if rule == "" || strings.Contains(rule, "oldSelf") {
				continue
			}
			prg := celProgram(rule)
			if prg == nil {
				continue
			}
			msg, _ := rm["message"].(string)
			if msg == "" {
				msg = fmt.Sprintf("failed rule: %s", rule)
			}
			fp, _ := rm["fieldPath"].(string)
			n.rules = append(n.rules, celRule{prg: prg, rule: rule, message: msg, fieldPath: splitFieldPath(fp)})
		}
	}
	addl, _ := s["additionalProperties"].(map[string]any)
	n.addl = buildCEL(addl)
	if props, ok := s["properties"].(map[string]any); ok {
		for k, v := range props {
			sub, _ := v.(map[string]any)
			// A property without rules is kept (as nil) only when
			// additionalProperties has rules, which must not apply to it.
			if c := buildCEL(sub); c != nil || n.addl != nil {
				if n.props == nil {
					n.props = map[string]*celNode{}
				}
				n.props[k] = c
			}
		}
	}
	items, _ := s["items"].(map[string]any)
	n.items = buildCEL(items)
	if n.rules == nil && n.props == nil && n.addl == nil && n.items == nil {
		return nil
	}
	return n
}

// checkCEL walks the rule tree and value together and evaluates every rule
// it meets.
func checkCEL(n *celNode, val any, path []string, out *[]celViolation) {
	if n == nil || val == nil {
		return
	}
	for _, r := range n.rules {
		res, _, err := r.prg.Eval(map[string]any{"self": val})
		if err != nil || res != types.False {
			continue
		}
		p := path
		if len(r.fieldPath) > 0 {
			p = append(append([]string{}, path...), r.fieldPath...)
		}
		*out = append(*out, celViolation{path: p, message: r.message})
	}
	switch v := val.(type) {
	case map[string]any:
		if n.props == nil && n.addl == nil {
			return
		}
		for k, child := range v {
			sub, ok := n.props[k]
			if !ok {
				sub = n.addl
			}
			if sub != nil {
				checkCEL(sub, child, append(append([]string{}, path...), k), out)
			}
		}
	case []any:
		if n.items == nil {
			return
		}
		for i, child := range v {
			checkCEL(n.items, child, append(append([]string{}, path...), fmt.Sprint(i)), out)
		}
	}
}

// splitFieldPath turns ".spec.replicas" into [spec replicas].
func splitFieldPath(fp string) []string {
	var out []string
	for _, p := range strings.Split(strings.TrimPrefix(fp, "."), ".") {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}
