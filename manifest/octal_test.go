package manifest

import "testing"

// TestParseLeadingZeroIsOctal checks integers with a leading zero decode
// as kubectl (YAML 1.1, through sigs.k8s.io/yaml) sends them: octal.
func TestParseLeadingZeroIsOctal(t *testing.T) {
	src := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  volumes:\n" +
		"    - {name: v, secret: {secretName: s, defaultMode: 0644}}\n" +
		"  a: 0400\n  b: -017\n  c: 0\n  d: 0o17\n  e: 10\n  f: \"0644\"\n"
	objs, probs := Parse("p.yaml", []byte(src))
	if len(objs) != 1 || len(probs) != 0 {
		t.Fatalf("objects %d, problems %v", len(objs), probs)
	}
	o := objs[0]
	want := map[string]any{"a": int64(256), "b": int64(-15), "c": int64(0), "d": int64(15), "e": int64(10), "f": "0644"}
	for k, w := range want {
		if got, _ := o.Get("spec", k); got != w {
			t.Errorf("spec.%s = %#v, want %#v", k, got, w)
		}
	}
	if got, _ := o.Get("spec", "volumes", "0", "secret", "defaultMode"); got != int64(420) {
		t.Errorf("defaultMode = %#v, want 420 (0644 octal)", got)
	}
}
