package main

import (
	yaml "go.yaml.in/yaml/v3"
)

// The custom resource type of the corpus.
const (
	widgetGroup   = "example.com"
	widgetVersion = "v1"
	widgetKind    = "Widget"
	widgetPlural  = "widgets"
	widgetCRDFile = "crd-widgets.yaml"
)

// widgetTiers are the values the tier enum allows.
var widgetTiers = []string{"bronze", "silver", "gold"}

// widgetSchema is the openAPIV3Schema of Widget v1: a few typed fields,
// required fields, an enum, an array of objects, a string map, a pattern and
// a status that keeps unknown fields.
func widgetSchema() map[string]any {
	str := func() map[string]any { return map[string]any{"type": "string"} }
	return map[string]any{
		"type":     "object",
		"required": []any{"spec"},
		"properties": map[string]any{
			"apiVersion": str(),
			"kind":       str(),
			"metadata":   map[string]any{"type": "object"},
			"spec": map[string]any{
				"type":     "object",
				"required": []any{"size", "tier"},
				"properties": map[string]any{
					"size":    map[string]any{"type": "integer", "minimum": 1, "maximum": 100},
					"tier":    map[string]any{"type": "string", "enum": []any{"bronze", "silver", "gold"}},
					"image":   str(),
					"shards":  map[string]any{"type": "integer", "minimum": 1},
					"enabled": map[string]any{"type": "boolean"},
					"owner":   map[string]any{"type": "string", "nullable": true},
					"retention": map[string]any{
						"type":    "string",
						"pattern": "^[0-9]+[smhd]$",
					},
					"ports": map[string]any{
						"type": "array",
						"items": map[string]any{
							"type":     "object",
							"required": []any{"name", "port"},
							"properties": map[string]any{
								"name":     str(),
								"port":     map[string]any{"type": "integer", "minimum": 1, "maximum": 65535},
								"protocol": map[string]any{"type": "string", "enum": []any{"TCP", "UDP"}},
							},
						},
					},
					"labels": map[string]any{
						"type":                 "object",
						"additionalProperties": str(),
					},
				},
			},
			"status": map[string]any{
				"type":                                 "object",
				"x-kubernetes-preserve-unknown-fields": true,
			},
		},
	}
}

// widgetCRD renders the CustomResourceDefinition of Widget as YAML.
func widgetCRD() ([]byte, error) {
	crd := map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata": map[string]any{
			"name": widgetPlural + "." + widgetGroup,
			"labels": map[string]any{
				"app.kubernetes.io/name":    "widget-operator",
				"app.kubernetes.io/part-of": "platform",
			},
		},
		"spec": map[string]any{
			"group": widgetGroup,
			"scope": "Namespaced",
			"names": map[string]any{
				"kind":     widgetKind,
				"listKind": widgetKind + "List",
				"plural":   widgetPlural,
				"singular": "widget",
			},
			"versions": []any{map[string]any{
				"name":    widgetVersion,
				"served":  true,
				"storage": true,
				"schema":  map[string]any{"openAPIV3Schema": widgetSchema()},
				"subresources": map[string]any{
					"status": map[string]any{},
				},
			}},
		},
	}
	return yaml.Marshal(crd)
}
