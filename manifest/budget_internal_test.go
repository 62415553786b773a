package manifest

import (
	"context"
	"strings"
	"testing"
)

// One Load keeps at most its budget of units: the file that would go over
// is refused, named, unparsed; the files before it load.
func TestLoadBudgetRefusesTheFileOverIt(t *testing.T) {
	doc := "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  currency: EUR\n  region: europe-west\n"
	data := []byte(strings.Repeat(doc, 2000)) // about 180 KiB, 26,000 units
	units := parseUnits(data)
	ctx := WithBudget(context.Background(), units*2+10)
	for i, want := range []bool{true, true, false} {
		objs, probs := parseStream(ctx, "set.yaml", data)
		if want && (len(objs) != 2000 || len(probs) != 0) {
			t.Fatalf("file %d within the budget: %d objects, problems %v", i, len(objs), probs)
		}
		if !want && (len(objs) != 0 || len(probs) != 1 || probs[0].File != "set.yaml" || !strings.Contains(probs[0].Message, "kubeplan's bound for the objects one plan keeps")) {
			t.Fatalf("file %d over the budget: %d objects, problems %v", i, len(objs), probs)
		}
	}
}
