package healthexpr

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
)

// The states a rule gives an object: kstatus's words, as package health
// uses them.
const (
	Current    = "Current"
	InProgress = "InProgress"
	Failed     = "Failed"
)

// evalTimeout bounds one evaluation of one expression.
const evalTimeout = time.Second

// Outcome is what a rule says of one object.
type Outcome struct {
	// Status is Current, InProgress or Failed.
	Status string
	// Key is the expression that decided ("current", "inProgress",
	// "failed"); "" when none was true or the generation was not observed.
	Key string
	// Message says why, naming the rule when it is not Current.
	Message string
	// Err is the error an expression failed with (a field the object
	// lacks, the cost limit): the object is InProgress, as Flux waits for
	// such an object until its timeout.
	Err error
}

// Evaluate says what the rule makes of obj, the way Flux's
// healthCheckExprs do: an object whose status.observedGeneration is there
// and differs from metadata.generation is InProgress; then inProgress,
// failed and current are evaluated in that order, and the first that is
// true decides (InProgress, Failed, Current); none true is InProgress. An
// expression that fails to evaluate (a missing field: use has() or
// .?field) leaves the object InProgress with the error, as Flux, which
// waits for it until the timeout; it never fails it.
func (c *Compiled) Evaluate(obj map[string]any) Outcome {
	if gen, obs, ok := generations(obj); ok && gen != obs {
		return Outcome{Status: InProgress, Message: fmt.Sprintf("generation %d not observed yet (status.observedGeneration is %d)", gen, obs)}
	}
	for _, key := range keys {
		prg := c.progs[key]
		if prg == nil {
			continue
		}
		ok, err := c.eval(prg, obj)
		if err != nil {
			return Outcome{Status: InProgress, Key: key, Err: err,
				Message: fmt.Sprintf("%s: %s: %v (waiting, as Flux does, until it evaluates)", c.Rule.Name(), key, err)}
		}
		if !ok {
			continue
		}
		switch key {
		case "inProgress":
			return Outcome{Status: InProgress, Key: key, Message: join(fmt.Sprintf("in progress by %s", c.Rule.Name()), conditionWhy(obj))}
		case "failed":
			return Outcome{Status: Failed, Key: key, Message: join(fmt.Sprintf("failed by %s", c.Rule.Name()), conditionWhy(obj))}
		}
		return Outcome{Status: Current, Key: key}
	}
	return Outcome{Status: InProgress, Message: join(fmt.Sprintf("not current yet by %s", c.Rule.Name()), conditionWhy(obj))}
}

// eval runs prg over obj and wants a bool.
func (c *Compiled) eval(prg cel.Program, obj map[string]any) (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), evalTimeout)
	defer cancel()
	v, _, err := prg.ContextEval(ctx, obj)
	if err != nil {
		return false, err
	}
	b, ok := v.(types.Bool)
	if !ok {
		return false, fmt.Errorf("yields %s, want bool", v.Type().TypeName())
	}
	return bool(b), nil
}

// generations are obj's metadata.generation and status.observedGeneration
// (a number, or a string of one as Argo Rollouts writes it); ok is false
// when either is missing.
func generations(obj map[string]any) (gen, obs int64, ok bool) {
	md, _ := obj["metadata"].(map[string]any)
	st, _ := obj["status"].(map[string]any)
	if md == nil || st == nil {
		return 0, 0, false
	}
	gen, ok1 := number(md["generation"])
	obs, ok2 := number(st["observedGeneration"])
	return gen, obs, ok1 && ok2
}

func number(v any) (int64, bool) {
	switch n := v.(type) {
	case int64:
		return n, true
	case int:
		return int64(n), true
	case int32:
		return int64(n), true
	case float64:
		return int64(n), true
	case string:
		i, err := strconv.ParseInt(n, 10, 64)
		return i, err == nil
	}
	return 0, false
}

// conditionWhy is the first condition of obj whose status is False, as
// "Ready=False Reason: message"; "" when none is.
func conditionWhy(obj map[string]any) string {
	st, _ := obj["status"].(map[string]any)
	conds, _ := st["conditions"].([]any)
	for _, c := range conds {
		m, _ := c.(map[string]any)
		if m == nil || m["status"] != "False" {
			continue
		}
		t, _ := m["type"].(string)
		r, _ := m["reason"].(string)
		msg, _ := m["message"].(string)
		return join(strings.TrimSpace(t+"=False "+r), msg)
	}
	return ""
}

func join(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, ": ")
}
