package lint

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/kubeplan/kubeplan/manifest"
)

// appendJSON must give encoding/json's bytes: the sum of a CRD's schema
// is its identity, and what it keeps is read back with encoding/json.
func TestAppendJSONIsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	strs := []string{"", "plain", `q"uote\back`, "tab\tnl\nret\r\b\f", "\x00\x01\x1f", "<a href='x'>&amp;</a>",
		"\u2028\u2029", "héllo wörld ✓", "bad \xff\xfe utf8", "\xed\xa0\x80 surrogate", "emoji 😀", "end\\"}
	floats := []float64{0, -0.0, 1, -1, 0.5, 1e20, 1e21, 1.5e21, 1e-6, 9.99e-7, 1e-7, 123456789.125, -3.25e-10, math.MaxFloat64, math.SmallestNonzeroFloat64, 1e100, 2.5e-300}
	var gen func(depth int) any
	gen = func(depth int) any {
		switch n := rng.IntN(9); {
		case n == 0:
			return nil
		case n == 1:
			return rng.IntN(2) == 0
		case n == 2:
			return strs[rng.IntN(len(strs))]
		case n == 3:
			return int64(rng.Int64N(1<<62)) - 1<<61
		case n == 4:
			return floats[rng.IntN(len(floats))]
		case n == 5:
			return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))
		case n == 6 && depth < 4:
			l := []any{}
			for range rng.IntN(4) {
				l = append(l, gen(depth+1))
			}
			return l
		case depth < 4:
			m := map[string]any{}
			for range rng.IntN(5) {
				m[strs[rng.IntN(len(strs))]+string(rune('a'+rng.IntN(26)))] = gen(depth + 1)
			}
			return m
		}
		return "leaf"
	}
	for i := range 5000 {
		v := gen(0)
		check(t, i, v)
	}
	check(t, -1, []any(nil))
	// Real CRDs, as lint decodes them.
	files, _ := filepath.Glob("../testdata/charts/public/*/charts/crds/crds/*.yaml")
	more, _ := filepath.Glob("testdata/*.yaml")
	files = append(files, more...)
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		objs, _ := manifest.Parse(f, data)
		for _, o := range objs {
			check(t, n, o.Content)
			n++
		}
	}
	if n < 10 {
		t.Errorf("only %d real objects compared (%d files)", n, len(files))
	}
	if _, err := appendJSON(nil, math.NaN()); err == nil {
		t.Error("NaN encoded; encoding/json refuses it")
	}
}

func check(t *testing.T, i int, v any) {
	t.Helper()
	want, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	got, err := appendJSON(nil, v)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("value %d:\nencoding/json: %s\nappendJSON:    %s", i, want, got)
	}
}
