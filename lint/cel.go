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

// checkCEL walks schema and value together and evaluates every
// x-kubernetes-validations rule it meets. Transition rules (oldSelf) need
// the live object and are left to plan.
func checkCEL(schema map[string]any, val any, path []string, out *[]celViolation) {
	if schema == nil || val == nil {
		return
	}
	if rules, ok := schema["x-kubernetes-validations"].([]any); ok {
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
			res, _, err := prg.Eval(map[string]any{"self": val})
			if err != nil || res != types.False {
				continue
			}
			msg, _ := rm["message"].(string)
			if msg == "" {
				msg = fmt.Sprintf("failed rule: %s", rule)
			}
			p := path
			if fp, _ := rm["fieldPath"].(string); fp != "" {
				p = append(append([]string{}, path...), splitFieldPath(fp)...)
			}
			*out = append(*out, celViolation{path: p, message: msg})
		}
	}
	switch v := val.(type) {
	case map[string]any:
		props, _ := schema["properties"].(map[string]any)
		addl, _ := schema["additionalProperties"].(map[string]any)
		for k, child := range v {
			sub, _ := props[k].(map[string]any)
			if sub == nil {
				sub = addl
			}
			if sub != nil {
				checkCEL(sub, child, append(append([]string{}, path...), k), out)
			}
		}
	case []any:
		items, _ := schema["items"].(map[string]any)
		for i, child := range v {
			checkCEL(items, child, append(append([]string{}, path...), fmt.Sprint(i)), out)
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
