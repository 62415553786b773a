package mutations

import (
	"encoding/json"
	"testing"
)

// TestGenerate checks the generator makes at least 10,000 mutations of 20
// kinds, every class among them, each one different from its base.
func TestGenerate(t *testing.T) {
	ms, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) < 10000 {
		t.Errorf("%d mutations, want at least 10,000", len(ms))
	}
	kinds := map[string]bool{}
	perClass := map[Class]int{}
	for _, m := range ms {
		kinds[m.Kind] = true
		perClass[m.Class]++
	}
	if len(kinds) != 20 {
		t.Errorf("%d kinds, want 20: %v", len(kinds), kinds)
	}
	for _, c := range Classes {
		if perClass[c] == 0 {
			t.Errorf("no mutation of class %q", c)
		}
		t.Logf("%-32s %5d", c, perClass[c])
	}
	bases, _ := Bases()
	baseJSON := map[string]bool{}
	for _, b := range bases {
		j, _ := json.Marshal(b)
		baseJSON[string(j)] = true
	}
	for _, m := range ms {
		j, err := json.Marshal(m.Object)
		if err != nil {
			t.Fatal(err)
		}
		if baseJSON[string(j)] {
			t.Errorf("mutation %d (%s at %s: %s) left its %s base unchanged", m.ID, m.Class, m.Where, m.What, m.Kind)
		}
	}
}
