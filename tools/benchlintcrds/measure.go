package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/kubeplan/kubeplan/internal/benchkit"
)

// The benchmark measures each command with benchkit.
type (
	tool   = benchkit.Tool
	sample = benchkit.Sample
)

// found is what one tool reported: objects with an error, by rule for
// kubeplan.
type found struct {
	Invalid int
	ByRule  map[string]int
}

// readFound reads kubeconform's or kubeplan's JSON output.
func readFound(name string, out []byte) (found, error) {
	f := found{ByRule: map[string]int{}}
	if strings.HasPrefix(name, "kubeconform") {
		var doc struct {
			Resources []struct{ Status string } `json:"resources"`
		}
		if err := json.Unmarshal(out, &doc); err != nil {
			return f, fmt.Errorf("reading kubeconform's output: %w", err)
		}
		for _, r := range doc.Resources {
			if r.Status == "statusInvalid" || r.Status == "statusError" {
				f.Invalid++
			}
		}
		return f, nil
	}
	var doc struct {
		Findings []struct {
			File, Object, Namespace, Rule, Severity string
		} `json:"findings"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		return f, fmt.Errorf("reading kubeplan's output: %w", err)
	}
	objs := map[string]bool{}
	for _, x := range doc.Findings {
		if x.Severity != "error" {
			continue
		}
		f.ByRule[x.Rule]++
		objs[x.File+"\x00"+x.Namespace+"\x00"+x.Object] = true
	}
	f.Invalid = len(objs)
	return f, nil
}
