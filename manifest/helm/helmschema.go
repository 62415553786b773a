package helm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/kubeplan/kubeplan/manifest"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	chart "helm.sh/helm/v4/pkg/chart/v2"
)

// schemaProblems checks the final values against the chart's
// values.schema.json and its subcharts' (each against its own part of
// the values), as helm install and template do. Each violation is one
// problem (rule helm-values-schema) at the key in the last values file
// that set it, else at the top of the chart's values.yaml.
func schemaProblems(ch *chart.Chart, values map[string]any, vals *helmVals) []*manifest.Problem {
	return schemaCheck(ch, values, nil, vals)
}

func schemaCheck(ch *chart.Chart, values map[string]any, prefix []string, vals *helmVals) []*manifest.Problem {
	var probs []*manifest.Problem
	if len(ch.Schema) > 0 {
		probs = append(probs, validateValues(ch, values, prefix, vals)...)
	}
	for _, d := range ch.Dependencies() {
		sub, _ := values[d.Name()].(map[string]any)
		if sub == nil {
			sub = map[string]any{}
		}
		probs = append(probs, schemaCheck(d, sub, append(append([]string(nil), prefix...), d.Name()), vals)...)
	}
	return probs
}

func validateValues(ch *chart.Chart, values map[string]any, prefix []string, vals *helmVals) []*manifest.Problem {
	at := func(path []string, msg string) *manifest.Problem {
		p := &manifest.Problem{File: vals.topFile(), Pos: manifest.Pos{Line: 1, Col: 1}, Rule: "helm-values-schema", Message: msg}
		if file, k, _ := vals.find(path); file != "" && k != nil {
			p.File, p.Pos = file, manifest.Pos{Line: k.Line, Col: k.Column}
		}
		return p
	}
	name := "values.schema.json of chart " + ch.Name()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(ch.Schema))
	if err != nil {
		return []*manifest.Problem{at(prefix, fmt.Sprintf("%s is not JSON: %v", name, err))}
	}
	c := jsonschema.NewCompiler()
	loader := &chartLoader{ch: ch, base: chartSchemaBase + ch.ChartFullPath() + "/"}
	c.UseLoader(loader)
	url := loader.base + "values.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		return []*manifest.Problem{at(prefix, fmt.Sprintf("%s: %v", name, err))}
	}
	sch, err := c.Compile(url)
	if err != nil {
		if loader.refused != "" {
			return []*manifest.Problem{refusedRef(ch, vals, prefix, loader.refused)}
		}
		return []*manifest.Problem{at(prefix, OneLine(fmt.Sprintf("%s does not compile: %v", name, err)))}
	}
	raw, err := json.Marshal(values)
	if err != nil {
		return []*manifest.Problem{at(prefix, fmt.Sprintf("values are not JSON: %v", err))}
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return []*manifest.Problem{at(prefix, fmt.Sprintf("values are not JSON: %v", err))}
	}
	err = sch.Validate(inst)
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil
	}
	pr := message.NewPrinter(language.English)
	var probs []*manifest.Problem
	for _, leaf := range schemaLeaves(ve) {
		path := append(append([]string(nil), prefix...), leaf.InstanceLocation...)
		key := strings.Join(path, ".")
		if key == "" {
			key = "(top)"
		}
		probs = append(probs, at(path, fmt.Sprintf("values key %s: %s (%s)", key, leaf.ErrorKind.LocalizedString(pr), name)))
	}
	return probs
}

// schemaLeaves are the innermost causes of a validation error: one per
// violated keyword.
func schemaLeaves(ve *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(ve.Causes) == 0 {
		return []*jsonschema.ValidationError{ve}
	}
	var out []*jsonschema.ValidationError
	for _, c := range ve.Causes {
		out = append(out, schemaLeaves(c)...)
	}
	return out
}
