package helm_test

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/filetree"
	"github.com/kubeplan/kubeplan/manifest/loader"
)

// schemaChart writes a chart whose values.schema.json is schema, and a
// canary beside it, and loads it; it returns the problems' text.
func schemaChart(t *testing.T, schema string, files map[string]string) string {
	t.Helper()
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "repo", "chart")
	all := map[string]string{
		"Chart.yaml":               "apiVersion: v2\nname: refs\nversion: 0.1.0\n",
		"values.yaml":              "replicas: 1\n",
		"templates/configmap.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: refs\ndata:\n  replicas: {{ .Values.replicas | quote }}\n",
		"values.schema.json":       schema,
	}
	for k, v := range files {
		all[k] = v
	}
	filetree.Write(t, dir, all)
	res, err := loader.Load([]string{dir}, loader.Options{})
	if err != nil {
		return err.Error()
	}
	var b strings.Builder
	for _, p := range res.Problems {
		fmt.Fprintf(&b, "%s:%d:%d: %s [%s]\n", p.File, p.Line, p.Col, p.Message, p.Rule)
	}
	return b.String()
}

func TestHelmSchemaRefsStayInChart(t *testing.T) {
	canaryDir := t.TempDir()
	canary := filepath.Join(canaryDir, "canary.json")
	if err := os.WriteFile(canary, []byte(`{"type":"string","description":"CANARY-schema-7f3a"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var connected atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			connected.Add(1)
			c.Close()
		}
	}()
	refused := func(ref string) string {
		return `{"type":"object","properties":{"replicas":` + "\n" + `  {"$ref": "` + ref + `"}}}`
	}
	for _, tc := range []struct{ name, ref string }{
		{"absolute file URL", "file://" + canary},
		{"absolute file URL to nothing", "file://" + filepath.Join(canaryDir, "missing.json")},
		{"relative path out of the chart", "../../../" + filepath.Base(canaryDir) + "/canary.json"},
		{"relative path out to nothing", "../../../" + filepath.Base(canaryDir) + "/missing.json"},
		{"http", "http://" + ln.Addr().String() + "/schema.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := schemaChart(t, refused(tc.ref), nil)
			if strings.Contains(got, "CANARY") {
				t.Fatalf("the canary leaked: %s", got)
			}
			want := `values.schema.json:2:4: $ref "` + tc.ref + `" is refused`
			if !strings.Contains(got, want) || !strings.Contains(got, "[helm-values-schema]") {
				t.Fatalf("got %q, want a problem containing %q", got, want)
			}
			// The same words whether or not the target exists.
			if strings.Contains(got, "no such file") || strings.Contains(got, "not exist") {
				t.Fatalf("the error tells whether the target exists: %s", got)
			}
		})
	}
	if n := connected.Load(); n != 0 {
		t.Errorf("the listener saw %d connections: a schema $ref was fetched", n)
	}
	t.Run("relative inside the chart", func(t *testing.T) {
		got := schemaChart(t, `{"type":"object","properties":{"replicas":{"$ref":"schemas/count.json#/definitions/count"}}}`,
			map[string]string{"schemas/count.json": `{"definitions":{"count":{"type":"string"}}}`})
		// replicas: 1 is not a string: the referenced schema was used.
		if !strings.Contains(got, "values key replicas: got number, want string") {
			t.Fatalf("got %q, want the referenced schema applied", got)
		}
	})
}
