package guard

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/interpreter"
)

// Evaluate runs every rule: change rules once per change, plan rules
// once. It returns the verdicts, denies first, then require-approval,
// then warn; within an outcome the plan's verdicts come first, then those
// of each change in the order of the changes (a change's in rule order:
// the built-ins, then the user's rules in file order).
//
// An expression that fails to evaluate on an input (a key the object does
// not have, the cost limit) is an error naming the rule and the object;
// so is going over the plan's cost budget (PlanCostBudget). A
// messageExpression that fails falls back to the rule's message.
func (s *Set) Evaluate(p Plan, changes []Change) ([]Verdict, error) {
	if err := s.ready(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), EvalTimeout)
	defer cancel()
	ev := evaluation{ctx: ctx}
	ev.act.plan = &p
	for _, r := range s.plan {
		if err := ev.rule(r, nil, &p); err != nil {
			return nil, err
		}
	}
	for i := range changes {
		c := &changes[i]
		ev.act.change = c
		for _, r := range s.change {
			if err := ev.rule(r, c, &p); err != nil {
				return nil, err
			}
		}
	}
	out := make([]Verdict, 0, len(ev.by[0])+len(ev.by[1])+len(ev.by[2]))
	for _, vs := range ev.by {
		out = append(out, vs...)
	}
	return out, nil
}

// evaluation is the state of one Evaluate: one activation reused for
// every change (no allocation per change for the variables), the cost
// spent, and the verdicts by outcome.
type evaluation struct {
	ctx   context.Context // ends at EvalTimeout
	act   activation
	spent uint64
	by    [3][]Verdict // deny, require-approval, warn
}

// rule evaluates r over c (nil for a plan rule) and keeps its verdict.
func (ev *evaluation) rule(r *compiled, c *Change, p *Plan) error {
	out, det, err := r.expr.ContextEval(ev.ctx, &ev.act)
	if err := ev.charge(det); err != nil {
		return fmt.Errorf("%s: guard rule %s on %s: %w", where(r), r.rule.Name, subject(c), err)
	}
	if err != nil {
		return fmt.Errorf("%s: guard rule %s on %s: %w", where(r), r.rule.Name, subject(c), ev.evalErr(err))
	}
	b, ok := out.(types.Bool)
	if !ok {
		// only an expression over before or after, typed dyn, gets here
		return fmt.Errorf("%s: guard rule %s on %s: expression yields %s, want bool", where(r), r.rule.Name, subject(c), out.Type().TypeName())
	}
	if !b {
		return nil
	}
	v := Verdict{Rule: r.rule.Name, Outcome: r.outcome, Builtin: r.builtin, At: r.at}
	v.Message = ev.message(r, c)
	if c != nil {
		v.Object, v.Namespace, v.Action, v.Files = c.Object, c.Namespace, c.Action, c.Files
	} else {
		v.Files = p.Files
	}
	i := 2
	switch r.outcome {
	case Deny:
		i = 0
	case RequireApproval:
		i = 1
	}
	ev.by[i] = append(ev.by[i], v)
	return nil
}

// message is the verdict's message: the messageExpression's, else the
// rule's message, else one made from the rule and the change.
func (ev *evaluation) message(r *compiled, c *Change) string {
	if r.msg != nil {
		out, det, err := r.msg.ContextEval(ev.ctx, &ev.act)
		if ev.charge(det) == nil && err == nil {
			if s, ok := out.(types.String); ok && s != "" {
				return string(s)
			}
		}
	}
	if r.rule.Message != "" {
		return r.rule.Message
	}
	if c == nil {
		return "the plan matches rule " + r.rule.Name
	}
	return fmt.Sprintf("%s of %s matches rule %s", c.Action, subject(c), r.rule.Name)
}

// charge adds an evaluation's cost to the plan's and refuses to go over
// PlanCostBudget.
func (ev *evaluation) charge(det *cel.EvalDetails) error {
	if det == nil || det.ActualCost() == nil {
		return nil
	}
	ev.spent += *det.ActualCost()
	if ev.spent > PlanCostBudget {
		return fmt.Errorf("the rules cost more than %d to evaluate over this plan: make the expensive rules cheaper (fewer macros over whole objects)", PlanCostBudget)
	}
	return nil
}

// evalErr says what to do about a limit; other errors are CEL's own ("no
// such key: metadata").
func (ev *evaluation) evalErr(err error) error {
	var ce interpreter.EvalCancelledError
	if errors.As(err, &ce) && ce.Cause == interpreter.CostLimitExceeded {
		return fmt.Errorf("%w (limit %d per evaluation): make the rule cheaper", err, CostLimit)
	}
	if ev.ctx.Err() != nil {
		return fmt.Errorf("the rules took longer than %s over this plan: make the expensive rules cheaper (fewer macros over whole objects)", EvalTimeout)
	}
	if strings.HasPrefix(err.Error(), "no such key") {
		return fmt.Errorf("%w: read a field not every object has with ?. and orValue, as in change.after.?spec.?type.orValue('')", err)
	}
	return err
}

func where(r *compiled) string {
	if r.at == "" {
		return "built-in"
	}
	return r.at
}

// subject names a change ("persistentvolumeclaim/data in namespace shop")
// or, for nil, the plan.
func subject(c *Change) string {
	if c == nil {
		return "the plan"
	}
	name := c.Object
	if name == "" {
		name = c.Kind + "/" + c.Name
	}
	if c.Namespace != "" {
		name += " in namespace " + c.Namespace
	}
	return name
}

// activation binds change and plan for one evaluation.
type activation struct {
	change *Change
	plan   *Plan
}

// ResolveName implements interpreter.Activation.
func (a *activation) ResolveName(name string) (any, bool) {
	switch name {
	case changeVar:
		if a.change == nil {
			return nil, false
		}
		return a.change, true
	case planVar:
		return a.plan, true
	}
	return nil, false
}

// Parent implements interpreter.Activation.
func (a *activation) Parent() interpreter.Activation { return nil }
