package plan

import (
	"slices"
	"testing"
)

func TestSecretValues(t *testing.T) {
	secret := map[string]any{
		"apiVersion": "v1", "kind": "Secret",
		"metadata": map[string]any{"name": "db"},
		"data": map[string]any{
			"password": "aHVudGVyMjI=",               // hunter22
			"binary":   "AAEC/w==",                   // not text: only the base64
			"broken":   "not base64!",                // kept as written
			"wrapped":  "bGluZSBv\nbmUKbGluZSB0d28=", // "line one\nline two"
			"empty":    "",
		},
		"stringData": map[string]any{"token": "s3cr3t-token", "port": int64(5432), "nested": map[string]any{"x": "y"}},
	}
	got := SecretValues(secret)
	want := []string{"AAEC/w==", "not base64!", "aHVudGVyMjI=", "hunter22", "bGluZSBv\nbmUKbGluZSB0d28=", "line one\nline two", "5432", "s3cr3t-token"}
	if !slices.Equal(got, want) {
		t.Errorf("SecretValues = %q\nwant %q", got, want)
	}
	for _, obj := range []map[string]any{
		nil,
		{"apiVersion": "v1", "kind": "ConfigMap", "data": map[string]any{"a": "not secret"}},
		{"apiVersion": "example.com/v1", "kind": "Secret", "data": map[string]any{"a": "b"}},
	} {
		if got := SecretValues(obj); got != nil {
			t.Errorf("SecretValues(%v) = %q, want none", obj, got)
		}
	}
	if got := SecretValues(map[string]any{"apiVersion": "v1", "kind": "Secret", "stringData": "a whole value"}); !slices.Equal(got, []string{"a whole value"}) {
		t.Errorf("stringData that is not an object: %q", got)
	}
}
