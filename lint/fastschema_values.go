package lint

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// A fastNum is a number of a schema (a bound, a multipleOf). jsonschema
// compares numbers as the rationals their %v text spells; so does a fast
// schema, but without allocating when both sides are numbers whose
// float64 comparison says the same (see floatExact).
type fastNum struct {
	rat   *big.Rat
	f     float64
	exact bool // f compares as rat does
}

// ratOf is jsonschema's view of a number (its numVal and numValidate).
func ratOf(v any) (*big.Rat, bool) {
	return new(big.Rat).SetString(fmt.Sprint(v))
}

func numKeyword(v any) (*fastNum, bool) {
	if !isNumber(v) {
		return nil, false
	}
	r, ok := ratOf(v)
	if !ok {
		return nil, false
	}
	f, _ := r.Float64()
	n := &fastNum{rat: r, f: f}
	// exact when f's shortest text spells the same rational as v's text
	if fr, ok := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64)); ok && fr.Cmp(r) == 0 && !math.IsInf(f, 0) {
		n.exact = true
	}
	return n, true
}

// intKeyword is a schema's non-negative integer (minLength, maxItems, ...)
// as jsonschema's intVal reads it.
func intKeyword(v any) (int, bool) {
	if !isNumber(v) {
		return 0, false
	}
	r, ok := ratOf(v)
	if !ok || !r.IsInt() || !r.Num().IsInt64() || r.Sign() < 0 {
		return 0, false
	}
	return int(r.Num().Int64()), true
}

func isNumber(v any) bool {
	switch v.(type) {
	case json.Number, float32, float64, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return true
	}
	return false
}

func isScalar(v any) bool {
	switch v.(type) {
	case nil, bool, string:
		return true
	}
	return isNumber(v)
}

// floatExact is v as a float64 when comparing it as a float64 gives what
// comparing its %v rational gives: a float64 (its %v is its shortest
// text, which orders and equals as the float does) or an integer of at
// most 2^53.
func floatExact(v any) (float64, bool) {
	const limit = 1 << 53
	switch n := v.(type) {
	case float64:
		return n, true
	case int:
		return float64(n), n >= -limit && n <= limit
	case int64:
		return float64(n), n >= -limit && n <= limit
	case int32:
		return float64(n), true
	case uint64:
		return float64(n), n <= limit
	}
	return 0, false
}

// cmpNum compares the instance number v with b as jsonschema does.
func cmpNum(v any, b *fastNum) int {
	if b.exact {
		if f, ok := floatExact(v); ok {
			switch {
			case f < b.f:
				return -1
			case f > b.f:
				return 1
			}
			return 0
		}
	}
	r, _ := ratOf(v)
	return r.Cmp(b.rat)
}

// isMultiple is jsonschema's multipleOf: v / m is an integer.
func isMultiple(v any, m *fastNum) bool {
	if f, ok := floatExact(v); ok && m.exact && f == math.Trunc(f) && m.f == math.Trunc(m.f) {
		return math.Mod(f, m.f) == 0 // both whole and at most 2^53: exact
	}
	r, _ := ratOf(v)
	return new(big.Rat).Quo(r, m.rat).IsInt()
}

// fastEquals is jsonschema's equals (enum, uniqueItems): numbers equal
// as rationals, lists and objects item by item; a value JSON cannot hold
// is an error.
func fastEquals(v1, v2 any) (bool, jsonschema.ErrorKind) {
	switch v1 := v1.(type) {
	case map[string]any:
		v2, ok := v2.(map[string]any)
		if !ok || len(v1) != len(v2) {
			return false, nil
		}
		for k, a := range v1 {
			b, ok := v2[k]
			if !ok {
				return false, nil
			}
			if ok, k := fastEquals(a, b); !ok || k != nil {
				return ok, k
			}
		}
		return true, nil
	case []any:
		v2, ok := v2.([]any)
		if !ok || len(v1) != len(v2) {
			return false, nil
		}
		for i := range v1 {
			if ok, k := fastEquals(v1[i], v2[i]); !ok || k != nil {
				return ok, k
			}
		}
		return true, nil
	case nil:
		return v2 == nil, nil
	case bool:
		v2, ok := v2.(bool)
		return ok && v1 == v2, nil
	case string:
		v2, ok := v2.(string)
		return ok && v1 == v2, nil
	}
	if !isNumber(v1) {
		return false, &kind.InvalidJsonValue{Value: v1}
	}
	if !isNumber(v2) || !finite(v2) {
		return false, nil
	}
	f1, ok1 := floatExact(v1)
	f2, ok2 := floatExact(v2)
	if ok1 && ok2 {
		return finite(v1) && f1 == f2, nil
	}
	r1, ok1 := ratOf(v1)
	r2, ok2 := ratOf(v2)
	return ok1 && ok2 && r1.Cmp(r2) == 0, nil
}

// finite is false for NaN and the infinities (which jsonschema's typeOf
// does not take for numbers).
func finite(v any) bool {
	switch n := v.(type) {
	case float64:
		return !math.IsNaN(n) && !math.IsInf(n, 0)
	case float32:
		return !math.IsNaN(float64(n)) && !math.IsInf(float64(n), 0)
	}
	return true
}

// fastDuplicates is jsonschema's: the first pair of equal items, the later
// one's index the smallest (its hashing of long lists finds the same
// pair).
func fastDuplicates(arr []any) (int, int, jsonschema.ErrorKind) {
	for i := 1; i < len(arr); i++ {
		for j := range i {
			if ok, k := fastEquals(arr[i], arr[j]); ok || k != nil {
				return j, i, k
			}
		}
	}
	return -1, -1, nil
}

// A fastFormat checks one asserted format with jsonschema itself, through
// a schema of that format alone, so that what is accepted, and the words
// of the error, are jsonschema's.
type fastFormat struct {
	name   string
	schema func() (*jsonschema.Schema, error)
}

var (
	formatsMu sync.Mutex
	formats   = map[string]*fastFormat{}
)

// formatChecker is the checker of the asserted format name, shared by
// every schema.
func formatChecker(name string) *fastFormat {
	formatsMu.Lock()
	defer formatsMu.Unlock()
	if f, ok := formats[name]; ok {
		return f
	}
	f := &fastFormat{name: name, schema: sync.OnceValues(func() (*jsonschema.Schema, error) {
		return compileSchema("https://kubeplan.dev/schemas/format-"+name+".json", map[string]any{"format": name})
	})}
	formats[name] = f
	return f
}

// check is the format error jsonschema gives v, or nil.
func (f *fastFormat) check(v any) jsonschema.ErrorKind {
	if f.name == "duration" {
		// compileSchema's own checker, called as jsonschema calls it
		if err := validateDuration(v); err != nil {
			return &kind.Format{Got: v, Want: f.name, Err: err}
		}
		return nil
	}
	sch, err := f.schema()
	if err != nil {
		return &kind.Format{Got: v, Want: f.name, Err: err}
	}
	var ve *jsonschema.ValidationError
	if !errors.As(sch.Validate(v), &ve) {
		return nil
	}
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	return ve.ErrorKind
}
