package admissiondiff

import (
	"strings"
	"testing"
)

// The offline half of the differential test, without a cluster: the corpus
// is large enough and every policy both passes and fails some object, so
// the comparison with the API server is about something.
func TestCorpusExercisesEveryPolicy(t *testing.T) {
	objs := Corpus("prod", "dev")
	if len(objs) < 200 {
		t.Fatalf("corpus has %d objects, want at least 200", len(objs))
	}
	y, err := ToYAML(objs)
	if err != nil {
		t.Fatal(err)
	}
	set, parsed := offlineSet(t, y, "prod", "dev")
	fails := map[string]int{}
	passes := map[string]int{}
	for _, o := range parsed {
		for _, v := range set.Check(o) {
			switch v.Result {
			case "fail", "error":
				fails[v.Policy]++
			case "pass":
				passes[v.Policy]++
			case "not-evaluable":
				t.Errorf("%s: %s not evaluable: %s", o, v.Policy, v.Message)
			}
		}
	}
	for _, p := range []string{"nonroot-x", "max-replicas-x", "memory-x", "images-x", "service-ports-x", "count-fail-x", "count-ignore-x", "owner-x"} {
		if fails[p] == 0 || passes[p] == 0 {
			t.Errorf("policy %s: %d fails, %d passes; want both", p, fails[p], passes[p])
		}
	}
}

func TestCompare(t *testing.T) {
	off := Outcome{Denied: true, Message: "a", Warnings: []string{WarningPrefix + "w"}}
	if d := Compare(Outcome{Denied: true, Message: "b", Warnings: []string{WarningPrefix + "w", "other"}}, []string{"a", "b"}, off); d != "" {
		t.Errorf("want agreement, got %s", d)
	}
	if d := Compare(Outcome{Denied: true, Message: "c"}, []string{"a"}, off); !strings.Contains(d, "server message") || !strings.Contains(d, "warnings") {
		t.Errorf("want a message and a warnings difference, got %s", d)
	}
}
