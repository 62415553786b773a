package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/kubeplan/kubeplan/lint"
)

// crdSchemaFile is the name kubeconform's template
// {{ .ResourceKind }}{{ .KindSuffix }}.json gives a kind of a group and
// version: the lower-case kind, the first label of the group, the version.
func crdSchemaFile(group, version, kind string) string {
	first, _, _ := strings.Cut(group, ".")
	return strings.ToLower(kind) + "-" + strings.ToLower(first) + "-" + strings.ToLower(version) + ".json"
}

// writeCRDSchema writes the Widget schema for kubeconform into dir,
// converted exactly as kubeplan converts it, so both validate alike.
func writeCRDSchema(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(lint.CRDToJSONSchema(widgetSchema()), "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(dir, crdSchemaFile(widgetGroup, widgetVersion, widgetKind))
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
