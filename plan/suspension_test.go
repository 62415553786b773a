package plan

import "testing"

// TestParseSuspension: the annotation's JSON, none when empty, and a
// value written by hand still suspends, as its reason.
func TestParseSuspension(t *testing.T) {
	if s := ParseSuspension(""); s != nil {
		t.Errorf("empty: %+v", s)
	}
	s := ParseSuspension(`{"by":"alice","reason":"incident 123","at":"2026-12-02T10:00:00Z"}`)
	if s == nil || s.By != "alice" || s.Reason != "incident 123" || s.Since() != "2026-12-02T10:00Z" {
		t.Errorf("JSON: %+v", s)
	}
	if s := ParseSuspension("hands off"); s == nil || s.Reason != "hands off" {
		t.Errorf("by hand: %+v", s)
	}
}
