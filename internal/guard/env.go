package guard

import (
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/ext"
)

// Rules come from pull requests: plan evaluates them on every pull request
// with the cluster's credentials at hand, so a rule is untrusted input. The
// limits below keep a hostile rule from exhausting the runner: a cap on the
// text CEL parses, a cost limit on each evaluation (CEL counts the work an
// expression does: every comparison, every element a macro visits, every
// byte a string function copies), a budget for all the evaluations of one
// plan, and a time limit on them (see Evaluate). The time limit is needed
// beside the costs: with cost tracking on, cel-go v0.29 takes time
// quadratic in the iterations of one macro (its cost stack is searched
// linearly), so a cost of 60,000 in one evaluation can take 300 ms.
//
// A rule over a change costs tens of units; a rule that walks every
// container of an object a few hundred.
const (
	// MaxExpressionLength is the longest expression or messageExpression,
	// in characters.
	MaxExpressionLength = 4096
	// CostLimit is the most one evaluation of one expression may cost.
	CostLimit = 20_000
	// PlanCostBudget is the most all the evaluations of one Evaluate
	// may cost together.
	PlanCostBudget = 10_000_000
	// maxRange bounds lists.range, which allocates before its cost is
	// counted.
	maxRange = 10_000
	// interruptEvery is how many iterations of a macro run between two
	// looks at the time limit.
	interruptEvery = 100
)

// EvalTimeout is the most one Evaluate may take; a variable so tests can
// shorten it.
var EvalTimeout = 10 * time.Second

// The CEL names of the two variables and their types.
const (
	changeVar  = "change"
	planVar    = "plan"
	changeType = "guard.Change"
	planType   = "guard.Plan"
)

// envs are the two environments every rule compiles in: change rules see
// change and plan, plan rules only plan. Building one takes milliseconds,
// so they are built once and shared (a cel.Env is safe for concurrent use).
var envs = sync.OnceValues(func() ([2]*cel.Env, error) {
	ch, err := newEnv(true)
	if err != nil {
		return [2]*cel.Env{}, err
	}
	pl, err := newEnv(false)
	return [2]*cel.Env{ch, pl}, err
})

func newEnv(withChange bool) (*cel.Env, error) {
	opts := []cel.EnvOption{
		ext.Strings(),
		ext.Lists(ext.ListsMaxRangeSize(maxRange)),
		ext.Sets(),
		// change.after.?metadata.?labels['team'].orValue(''): a field
		// only some objects have, without an error on the others
		cel.OptionalTypes(),
		cel.ParserExpressionSizeLimit(MaxExpressionLength),
		// Change and Plan with their cel: tags as field names, so a typo
		// (change.kidn) is a compile error, not a false at run time.
		// After the libraries: they register types, which only the
		// standard provider can.
		ext.NativeTypes(ext.ParseStructField(celFieldName), reflect.TypeFor[Change](), reflect.TypeFor[Plan]()),
		// Then fields with getters that need no reflection, and before
		// and after (maps of any, which NativeTypes cannot type) as
		// map(string, dyn).
		func(e *cel.Env) (*cel.Env, error) {
			return cel.CustomTypeProvider(&provider{Provider: e.CELTypeProvider()})(e)
		},
		cel.Variable(planVar, cel.ObjectType(planType)),
	}
	if withChange {
		opts = append(opts, cel.Variable(changeVar, cel.ObjectType(changeType)))
	}
	return cel.NewEnv(opts...)
}

// celFieldName is a field's name in CEL: its cel tag. A field tagged
// cel:"-" gets a name no CEL expression can spell, so it is invisible
// (ext.ParseStructTags would name every such field "-" and refuse the
// duplicates).
func celFieldName(f reflect.StructField) string {
	tag, ok := f.Tag.Lookup("cel")
	if !ok {
		return f.Name
	}
	name, _, _ := strings.Cut(tag, ",")
	if name == "-" {
		return "-" + f.Name
	}
	return name
}
