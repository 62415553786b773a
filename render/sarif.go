package render

import (
	"encoding/json"
	"io"
	"net/url"
	"path"
	"path/filepath"
	"sort"

	"github.com/kubeplan/kubeplan/lint"
)

const (
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion = "2.1.0"
	// InformationURI is where the sarif tool.driver points people.
	InformationURI = "https://github.com/kubeplan/kubeplan"
	// sarifSrcRoot is the uriBaseId of relative paths: the directory kubeplan
	// ran in, which code scanning maps to the repository root.
	sarifSrcRoot = "%SRCROOT%"
)

// lintSARIF writes a SARIF 2.1.0 log with one run. tool.driver.rules holds
// opts.Rules plus every rule id seen in findings, sorted by id; results refer
// to them by ruleId and ruleIndex. Levels map error->error, warning->warning,
// info->note. Relative paths become URIs relative to %SRCROOT% with forward
// slashes; absolute paths become file:// URIs. SARIF positions are 1-based,
// so unknown (0) start lines and columns are written as 1, and unknown ends
// are left out. object, namespace and field go in the result's properties.
func lintSARIF(w io.Writer, rep lint.Report, opts LintOptions) error {
	rules, index := sarifRules(rep.Findings, opts.Rules)
	results := make([]sarifResult, 0, len(rep.Findings))
	for _, f := range rep.Findings {
		results = append(results, sarifResultOf(f, index[f.Rule]))
	}
	log := sarifLog{
		Schema:  sarifSchema,
		Version: sarifVersion,
		Runs: []sarifRun{{
			Tool: sarifTool{Driver: sarifDriver{
				Name:           "kubeplan",
				InformationURI: InformationURI,
				Version:        opts.ToolVersion,
				Rules:          rules,
			}},
			Results: results,
		}},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(log)
}

// sarifRules merges the known rules with rule ids seen in findings, sorted
// by id, and returns each id's index.
func sarifRules(findings []lint.Finding, known []lint.RuleInfo) ([]sarifRule, map[string]int) {
	byID := map[string]lint.RuleInfo{}
	for _, r := range known {
		if _, dup := byID[r.ID]; !dup {
			byID[r.ID] = r
		}
	}
	seenOnly := map[string]bool{}
	for _, f := range findings {
		if _, ok := byID[f.Rule]; !ok {
			seenOnly[f.Rule] = true
		}
	}
	ids := make([]string, 0, len(byID)+len(seenOnly))
	for id := range byID {
		ids = append(ids, id)
	}
	for id := range seenOnly {
		ids = append(ids, id)
	}
	sort.Strings(ids)

	rules := make([]sarifRule, len(ids))
	index := make(map[string]int, len(ids))
	for i, id := range ids {
		index[id] = i
		rules[i] = sarifRule{ID: id}
		if r, ok := byID[id]; ok {
			if r.Description != "" {
				rules[i].ShortDescription = &sarifMessage{Text: r.Description}
			}
			rules[i].HelpURI = r.HelpURI
			rules[i].DefaultConfiguration = &sarifConfig{Level: sarifLevel(r.Severity)}
		}
	}
	return rules, index
}

func sarifResultOf(f lint.Finding, ruleIndex int) sarifResult {
	region := &sarifRegion{StartLine: atLeast1(f.Line), StartColumn: atLeast1(f.Col)}
	if f.EndLine > 0 {
		region.EndLine = f.EndLine
	}
	if f.EndCol > 0 {
		region.EndColumn = f.EndCol
	}
	loc := sarifArtifactLocation{URI: sarifURI(f.File)}
	if !filepath.IsAbs(f.File) {
		loc.URIBaseID = sarifSrcRoot
	}
	r := sarifResult{
		RuleID:    f.Rule,
		RuleIndex: ruleIndex,
		Level:     sarifLevel(f.Severity),
		Message:   sarifMessage{Text: f.Message},
		Locations: []sarifLocation{{PhysicalLocation: sarifPhysicalLocation{
			ArtifactLocation: loc,
			Region:           region,
		}}},
	}
	if f.Object != "" || f.Namespace != "" || f.Field != "" {
		r.Properties = &sarifResultProps{Object: f.Object, Namespace: f.Namespace, Field: f.Field}
	}
	return r
}

// sarifURI turns a file path into a URI reference: forward slashes, cleaned,
// percent-encoded; absolute paths become file:// URIs.
func sarifURI(file string) string {
	p := filepath.ToSlash(file)
	if filepath.IsAbs(file) {
		if !path.IsAbs(p) { // a Windows drive path, C:/x
			p = "/" + p
		}
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	return (&url.URL{Path: path.Clean(p)}).String()
}

func sarifLevel(s lint.Severity) string {
	switch s {
	case lint.Error:
		return "error"
	case lint.Warning:
		return "warning"
	default:
		return "note"
	}
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Version        string      `json:"version,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string        `json:"id"`
	ShortDescription     *sarifMessage `json:"shortDescription,omitempty"`
	HelpURI              string        `json:"helpUri,omitempty"`
	DefaultConfiguration *sarifConfig  `json:"defaultConfiguration,omitempty"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID     string            `json:"ruleId"`
	RuleIndex  int               `json:"ruleIndex"`
	Level      string            `json:"level"`
	Message    sarifMessage      `json:"message"`
	Locations  []sarifLocation   `json:"locations"`
	Properties *sarifResultProps `json:"properties,omitempty"`
}

type sarifResultProps struct {
	Object    string `json:"object,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	Field     string `json:"field,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}
