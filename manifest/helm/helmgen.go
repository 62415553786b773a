package helm

import (
	"reflect"
	"sync/atomic"
	"time"
)

// generatingFuncs are the template functions whose result is new at every
// render: random strings and numbers, UUIDs, keys and certificates (random
// keys and serials, validity from the clock), salted hashes, the clock.
// A chart that calls one renders twice (see genSource); the fields that
// differ are Kept with KeptGenerated.
var generatingFuncs = map[string]bool{
	"randAlphaNum": true, "randAlpha": true, "randNumeric": true, "randAscii": true,
	"randBytes": true, "randInt": true, "shuffle": true, "uuidv4": true,
	"genPrivateKey": true, "genCA": true, "genCAWithKey": true,
	"genSelfSignedCert": true, "genSelfSignedCertWithKey": true,
	"genSignedCert": true, "genSignedCertWithKey": true,
	"bcrypt": true, "htpasswd": true, "encryptAES": true,
	"now": true,
}

// clockFuncs read the clock when their date argument is not a time (or a
// Unix time); ago always does. They take the time from genSource's now.
var clockFuncs = map[string]bool{
	"date": true, "date_in_zone": true, "dateInZone": true,
	"htmlDate": true, "htmlDateInZone": true, "ago": true,
}

// genMode is what a render's generating functions return.
type genMode int

const (
	// genLive: new values (crypto/rand, the real clock), recorded on the
	// tape: the render whose objects are returned.
	genLive genMode = iota
	// genVary: new values, each different from the one the live render
	// made at the same call (the clock moved by genVaryOffset): the render
	// that finds generated fields.
	genVary
	// genReplay: the live render's values again, call by call, where the
	// function and its arguments are the same: the renders that find
	// fields derived from looked-up Secret data, so a generated value does
	// not pass for one.
	genReplay
)

// genVaryOffset is how far the clock of a genVary render is from the live
// render's: more than a year, a month, a day, an hour, a minute, a second
// and a weekday, so any formatting of it differs.
const genVaryOffset = 400*24*time.Hour + time.Hour + time.Minute + time.Second + 1001001*time.Nanosecond

// maxGenTape bounds how many calls a tape records; later calls of a live
// render are not replayed (their fields may then pass for looked up,
// which only hides them).
const maxGenTape = 1 << 16

// genCall is one call of a generating function: its name, arguments and
// results.
type genCall struct {
	name string
	args []any
	out  []reflect.Value
}

// genSource makes the generating functions of one render.
type genSource struct {
	mode genMode
	// tape is what the live render made (written in genLive, read in the
	// others).
	tape *[]genCall
	// calls counts the calls of generating functions in this render
	// (read by the caller while an abandoned render may still run).
	calls atomic.Int64
}

// newGenSource is the source of a render in mode over tape.
func newGenSource(mode genMode, tape *[]genCall) *genSource {
	return &genSource{mode: mode, tape: tape}
}

// funcs are the generating and clock functions of this render, to be
// bounded like every other (see renderBudget.funcs).
func (g *genSource) funcs() map[string]any {
	sf := sprigFuncs()
	out := make(map[string]any, len(generatingFuncs)+len(clockFuncs)+1)
	for name := range generatingFuncs {
		fn := sf[name]
		if name == "now" {
			fn = time.Now
		}
		out[name] = g.wrap(name, fn)
	}
	for name := range clockFuncs {
		out[name] = g.clockFunc(name, sf[name])
	}
	return out
}

// wrap returns fn with the same signature, made as g.mode says.
func (g *genSource) wrap(name string, fn any) any {
	v := reflect.ValueOf(fn)
	return reflect.MakeFunc(v.Type(), func(args []reflect.Value) []reflect.Value {
		return g.call(name, v, args)
	}).Interface()
}

// call runs one generating call number g.calls.
func (g *genSource) call(name string, fn reflect.Value, args []reflect.Value) []reflect.Value {
	k := int(g.calls.Add(1) - 1)
	var rec *genCall
	if k < len(*g.tape) && (*g.tape)[k].name == name {
		rec = &(*g.tape)[k]
	}
	run := func() []reflect.Value {
		if fn.Type().IsVariadic() {
			return fn.CallSlice(args)
		}
		return fn.Call(args)
	}
	switch g.mode {
	case genLive:
		out := run()
		if len(*g.tape) < maxGenTape {
			*g.tape = append(*g.tape, genCall{name: name, args: interfaces(args), out: out})
		}
		return out
	case genReplay:
		if rec != nil && reflect.DeepEqual(rec.args, interfaces(args)) {
			return rec.out
		}
		return run()
	}
	if name == "now" {
		base := time.Now()
		if rec != nil {
			base = rec.out[0].Interface().(time.Time)
		}
		return []reflect.Value{reflect.ValueOf(base.Add(genVaryOffset))}
	}
	out := run()
	// a short random string can come out the same: draw again
	for i := 0; rec != nil && i < 32 && reflect.DeepEqual(interfaces(out), interfaces(rec.out)); i++ {
		out = run()
	}
	return out
}

// Now is the clock of this render, as the template's now returns it.
func (g *genSource) Now() time.Time {
	return g.call("now", reflect.ValueOf(time.Now), nil)[0].Interface().(time.Time)
}

// clockFunc is sprig's date function name with the clock it reads
// replaced by g.now: when the date argument is not a time (or Unix time),
// the time is this render's now; ago measures from it.
func (g *genSource) clockFunc(name string, fn any) any {
	v := reflect.ValueOf(fn)
	if name == "ago" {
		return func(date any) string {
			now := g.Now()
			t, ok := dateArg(date)
			if _, ptr := date.(*time.Time); !ok || ptr {
				t = now // sprig's ago reads no *time.Time
			}
			if _, i32 := date.(int32); i32 {
				t = now // nor an int32
			}
			return now.Sub(t).Round(time.Second).String()
		}
	}
	// the date is the first argument of htmlDate and htmlDateInZone, the
	// second of the others
	at := 1
	if name == "htmlDate" || name == "htmlDateInZone" {
		at = 0
	}
	return reflect.MakeFunc(v.Type(), func(args []reflect.Value) []reflect.Value {
		if _, ok := dateArg(args[at].Interface()); !ok {
			args = append([]reflect.Value(nil), args...)
			args[at] = reflect.ValueOf(any(g.Now()))
		}
		return v.Call(args)
	}).Interface()
}

// dateArg is the time sprig's date functions read from date without the
// clock: a time, or seconds since the Unix epoch.
func dateArg(date any) (time.Time, bool) {
	switch d := date.(type) {
	case time.Time:
		return d, true
	case *time.Time:
		if d != nil {
			return *d, true
		}
	case int64:
		return time.Unix(d, 0), true
	case int:
		return time.Unix(int64(d), 0), true
	case int32:
		return time.Unix(int64(d), 0), true
	}
	return time.Time{}, false
}

// interfaces is what the values hold.
func interfaces(vs []reflect.Value) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = v.Interface()
	}
	return out
}
