package manifest

import (
	"fmt"
	"strings"
	"testing"
)

func TestExplore2(t *testing.T) {
	for _, s := range []string{
		"{\n  \"a\": \"1\"\n  ,\n}\n",
		"{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"ConfigMap\"\n  \"metadata\": {\"name\": \"x\"}\n}\n",
		"{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"ConfigMap\",\n  \"metadata\": {\"name\": \"x\"},\n  \"data\": {\"a\": \"1\",}\n",
		"apiVersion: v1\nkind: ConfigMap\ndata:\n  x: " + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "\n",
		"apiVersion: v1\nkind: ConfigMap\ndata:\n  x: " + strings.Repeat("[", 10001) + "\n",
		"apiVersion: v1\nkind: ConfigMap\ndata:\n  x: " + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + "\n",
		"apiVersion: v1\nkind: ConfigMap\ndata:\n  x: " + strings.Repeat("- ", 1000) + "\n",
		"\ufeff---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n",
		"\ufeff---\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n---\n\ufeffapiVersion: v1\nkind: ConfigMap\nmetadata: {name: y}\n",
	} {
		objs, probs := Parse("x.yaml", []byte(s))
		fmt.Printf("== %.60q\n", s)
		for _, o := range objs {
			fmt.Printf("  obj %s doc=%d start=%v name@%v\n", o, o.Doc, o.Start(), o.Pos("metadata", "name"))
		}
		for _, p := range probs {
			fmt.Printf("  prob %s %v %s\n", p.Rule, p.Pos, p.Message)
		}
	}
}
