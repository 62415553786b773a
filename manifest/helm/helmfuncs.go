package helm

import (
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"text/template"

	"github.com/Masterminds/sprig/v3"
)

// helmOwnFuncs are the template functions helm's engine defines or removes
// itself (engine.funcMap and initFunMap): they are left to helm, every other
// sprig function is bounded (see renderBudget.funcs).
var helmOwnFuncs = map[string]bool{
	"env": true, "expandenv": true, "getHostByName": true, "include": true, "tpl": true,
	"required": true, "fail": true, "lookup": true,
	"toToml": true, "mustToToml": true, "fromToml": true, "toYaml": true, "mustToYaml": true,
	"toYamlPretty": true, "fromYaml": true, "fromYamlArray": true, "toJson": true,
	"mustToJson": true, "fromJson": true, "fromJsonArray": true,
	"mustToDuration": true, "durationSeconds": true, "durationMilliseconds": true,
	"durationMicroseconds": true, "durationNanoseconds": true, "durationMinutes": true,
	"durationHours": true, "durationDays": true, "durationWeeks": true,
	"durationRoundTo": true, "durationTruncateTo": true,
}

// sprigFuncs are sprig's template functions, made on first use, once
// (only read).
var sprigFuncs = sync.OnceValue(sprig.TxtFuncMap)

// builtinFuncs are text/template's own functions that can grow output,
// with the functions text/template gives them.
var builtinFuncs = template.FuncMap{
	"print": fmt.Sprint, "printf": fmt.Sprintf, "println": fmt.Sprintln,
	"html": template.HTMLEscaper, "js": template.JSEscaper, "urlquery": template.URLQueryEscaper,
}

// renderBudget bounds one chart's rendering: no value a template function
// takes or makes may be larger than limit bytes, the strings they make may
// add up to at most 16 times that, and once stopped (the deadline passed)
// every function call fails, so the template stops at its next call.
type renderBudget struct {
	limit   int64
	made    atomic.Int64
	stopped atomic.Bool
}

// helmLimitError is a bound a chart's rendering hit.
type helmLimitError struct{ msg string }

func (e *helmLimitError) Error() string { return e.msg }

// funcs are the bounded template functions, for engine.CustomTemplateFuncs:
// sprig's (but helm's own), text/template's that grow output, and extra
// (a render's generating functions and lookup), which replace the others.
func (b *renderBudget) funcs(extra map[string]any) template.FuncMap {
	out := template.FuncMap{}
	for name, fn := range sprigFuncs() {
		if !helmOwnFuncs[name] {
			out[name] = b.wrap(name, fn)
		}
	}
	for name, fn := range builtinFuncs {
		out[name] = b.wrap(name, fn)
	}
	for name, fn := range extra {
		out[name] = b.wrap(name, fn)
	}
	return out
}

// wrap returns fn with the same signature, bounded: its arguments and what
// it would make are measured before it runs, its results after.
func (b *renderBudget) wrap(name string, fn any) any {
	v := reflect.ValueOf(fn)
	return reflect.MakeFunc(v.Type(), func(args []reflect.Value) []reflect.Value {
		if b.stopped.Load() {
			panic(&helmLimitError{"rendering stopped: the chart's time bound passed"})
		}
		in := int64(0)
		for _, a := range args {
			in += sizeOf(a, b.limit-in+1)
		}
		if extra := growth(name, args); in > b.limit || extra > b.limit-in {
			panic(b.tooLarge(name))
		}
		var out []reflect.Value
		if v.Type().IsVariadic() {
			out = v.CallSlice(args)
		} else {
			out = v.Call(args)
		}
		for _, r := range out {
			n := sizeOf(r, b.limit+1)
			if n > b.limit {
				panic(b.tooLarge(name))
			}
			if r.Kind() == reflect.String && b.made.Add(n) > 16*b.limit {
				panic(&helmLimitError{fmt.Sprintf("the chart's template functions made more than %s of text in all; kubeplan bounds what a chart may render", mib(16*b.limit))})
			}
		}
		return out
	}).Interface()
}

func (b *renderBudget) tooLarge(name string) error {
	return &helmLimitError{fmt.Sprintf("%s would make a value larger than %s; kubeplan bounds what a chart may render", name, mib(b.limit))}
}

func mib(n int64) string { return strconv.FormatInt(n>>20, 10) + " MiB" }

// growth is how many bytes a call of the function name may make beyond
// the size of its arguments, for the functions whose output is not bounded
// by their input; 0 for the others.
func growth(name string, args []reflect.Value) int64 {
	num := func(i int) int64 {
		if i < len(args) && args[i].CanInt() {
			return args[i].Int()
		}
		return 0
	}
	str := func(i int) string {
		if i < len(args) && args[i].Kind() == reflect.String {
			return args[i].String()
		}
		return ""
	}
	switch name {
	case "repeat":
		return mulCap(abs(num(0)), int64(len(str(1))))
	case "until":
		return mulCap(abs(num(0)), 24)
	case "untilStep":
		return mulCap(abs(num(1))+abs(num(0)), 24) / max(abs(num(2)), 1)
	case "seq":
		return seqGrowth(args)
	case "randAlpha", "randAlphaNum", "randNumeric", "randAscii", "randBytes":
		return mulCap(abs(num(0)), 2)
	case "indent", "nindent":
		return mulCap(abs(num(0)), int64(strings.Count(str(1), "\n")+2))
	case "replace":
		return mulCap(int64(strings.Count(str(2), str(0))+1), int64(len(str(1))))
	case "regexReplaceAll", "regexReplaceAllLiteral", "mustRegexReplaceAll", "mustRegexReplaceAllLiteral":
		return mulCap(int64(len(str(1))+1), int64(len(str(2))))
	case "join":
		if len(args) > 1 {
			list := args[1]
			for list.Kind() == reflect.Interface && !list.IsNil() {
				list = list.Elem()
			}
			if list.Kind() == reflect.Slice || list.Kind() == reflect.Array {
				return int64(len(str(0))) * int64(list.Len())
			}
		}
	case "wrapWith":
		return int64(len(str(2))) * int64(len(str(1))+1)
	case "printf":
		return printfGrowth(args)
	}
	return 0
}

// maxGrowth stands for any size too large to matter (and to add up).
const maxGrowth = 1 << 50

// abs is |n|, at most maxGrowth.
func abs(n int64) int64 {
	if n < -maxGrowth || n > maxGrowth {
		return maxGrowth
	}
	return max(n, -n)
}

// mulCap is a*b for a, b >= 0, at most maxGrowth.
func mulCap(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a >= maxGrowth/b {
		return maxGrowth
	}
	return a * b
}

// seqGrowth is what seq's numbers take as text.
func seqGrowth(args []reflect.Value) int64 {
	if len(args) == 0 || args[0].Kind() != reflect.Slice {
		return 0
	}
	var ns []int64
	for i := 0; i < args[0].Len(); i++ {
		ns = append(ns, abs(args[0].Index(i).Int()))
	}
	switch len(ns) {
	case 1:
		return mulCap(ns[0], 21)
	case 2:
		return mulCap(ns[0]+ns[1], 21)
	case 3:
		return mulCap(ns[0]+ns[2], 21) / max(ns[1], 1)
	}
	return 0
}

// printfWidth finds the widths and precisions of a format string.
var printfWidth = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`%[-+# 0]*(\*|\d*)(?:\.(\*|\d*))?`) })

// printfGrowth is what the widths and precisions of printf's format (and
// the arguments a "*" takes) may add.
func printfGrowth(args []reflect.Value) int64 {
	if len(args) == 0 || args[0].Kind() != reflect.String {
		return 0
	}
	var n int64
	stars := false
	for _, m := range printfWidth().FindAllStringSubmatch(args[0].String(), -1) {
		for _, w := range m[1:] {
			switch v, err := strconv.ParseInt(w, 10, 64); {
			case w == "":
			case w == "*":
				stars = true
			case err != nil:
				return maxGrowth // too large to parse: far too large
			default:
				n = min(n+v, maxGrowth)
			}
		}
	}
	if stars && len(args) > 1 && args[1].Kind() == reflect.Slice {
		for i := 0; i < args[1].Len(); i++ {
			if a := reflect.ValueOf(args[1].Index(i).Interface()); a.IsValid() && a.CanInt() {
				n = min(n+abs(a.Int()), maxGrowth)
			}
		}
	}
	return n
}

// sizeOf is about how many bytes v takes (strings by their length, each
// list item 16 more, each map entry 32 more, anything else 8), counted no
// further than past budget, so a huge or cyclic value costs at most budget
// steps.
func sizeOf(v reflect.Value, budget int64) int64 {
	var n int64
	stack := []reflect.Value{v}
	for len(stack) > 0 && n <= budget {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch v = derefValue(v); v.Kind() {
		case reflect.Slice, reflect.Array:
			if v.Type().Elem().Kind() == reflect.Uint8 {
				n += int64(v.Len())
				continue
			}
			n += 16 * int64(v.Len())
			for i := 0; i < v.Len() && n <= budget; i++ {
				if e := derefValue(v.Index(i)); isContainer(e) {
					stack = append(stack, e)
				} else {
					n += leafSize(e)
				}
			}
		case reflect.Map:
			n += 32 * int64(v.Len())
			it := v.MapRange()
			for it.Next() && n <= budget {
				n += leafSize(derefValue(it.Key()))
				if e := derefValue(it.Value()); isContainer(e) {
					stack = append(stack, e)
				} else {
					n += leafSize(e)
				}
			}
		default:
			n += leafSize(v)
		}
	}
	return n
}

// derefValue is what v holds through interfaces and pointers.
func derefValue(v reflect.Value) reflect.Value {
	for v.IsValid() && (v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer) && !v.IsNil() {
		v = v.Elem()
	}
	return v
}

func isContainer(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		return true
	}
	return false
}

// leafSize is what a value that is not a container takes.
func leafSize(v reflect.Value) int64 {
	if v.Kind() == reflect.String {
		return int64(v.Len())
	}
	return 8
}
