package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

// outcome is what one tool reported about the corpus.
type outcome struct {
	Changed   int    // objects reported as changed (add, change or prune)
	Unchanged int    // objects reported unchanged (kubeplan only)
	LabelOnly int    // of Changed: diffs that only touch the ApplySet label (kubectl only)
	Summary   string // the tool's own summary, shortened
	Example   string // one changed object's diff, or ""
}

// parseKubeplanPlan reads the summary of `kubeplan plan -o json`.
func parseKubeplanPlan(out []byte) (outcome, error) {
	var doc struct {
		Summary struct {
			Add, Change, Prune, Unchanged, Drifted int
		} `json:"summary"`
		Changes []struct {
			Action string `json:"action"`
			Diff   string `json:"diff"`
		} `json:"changes"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		return outcome{}, fmt.Errorf("reading kubeplan's JSON plan: %w", err)
	}
	s := doc.Summary
	o := outcome{
		Changed: s.Add + s.Change + s.Prune, Unchanged: s.Unchanged,
		Summary: fmt.Sprintf("%d to add, %d to change, %d to prune, %d unchanged, %d drifted", s.Add, s.Change, s.Prune, s.Unchanged, s.Drifted),
	}
	for _, c := range doc.Changes {
		if c.Action != "unchanged" && c.Diff != "" {
			o.Example = c.Diff
			break
		}
	}
	return o, nil
}

// applySetLabel is the member label kubectl diff drops on every object.
const applySetLabel = "applyset.kubernetes.io/part-of"

// parseKubectlDiff counts the objects in `kubectl diff` output: one
// "diff -u -N LIVE/x MERGED/x" block per object that differs. A block whose
// changed lines only remove or add the ApplySet member label (and the
// "labels:" line around it) counts as LabelOnly too.
func parseKubectlDiff(out []byte) outcome {
	var o outcome
	var block []string
	flush := func() {
		if block == nil {
			return
		}
		o.Changed++
		labelOnly := true
		for _, l := range block {
			if len(l) == 0 || (l[0] != '-' && l[0] != '+') || strings.HasPrefix(l, "---") || strings.HasPrefix(l, "+++") {
				continue
			}
			if t := strings.TrimSpace(l[1:]); t != "labels:" && !strings.HasPrefix(t, applySetLabel+":") {
				labelOnly = false
			}
		}
		if labelOnly {
			o.LabelOnly++
		}
		if o.Example == "" {
			o.Example = strings.Join(block, "\n")
		}
		block = nil
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "diff ") {
			flush()
			block = []string{}
			continue
		}
		if block != nil {
			block = append(block, line)
		}
	}
	flush()
	o.Summary = fmt.Sprintf("%d objects differ", o.Changed)
	if o.Changed > 0 {
		o.Summary += fmt.Sprintf(" (%d of them only in the %s label)", o.LabelOnly, applySetLabel)
	}
	return o
}
