package render

import (
	"fmt"
	"strings"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/health"
	"github.com/kubeplan/kubeplan/plan"
)

// diagnoses returns the diagnosis of every object of res that has one, by
// ref.
func diagnoses(res *apply.Result) map[plan.Ref]*health.Diagnosis {
	if res == nil {
		return nil
	}
	var out map[plan.Ref]*health.Diagnosis
	for _, h := range res.Health {
		if h.Diagnosis == nil {
			continue
		}
		if out == nil {
			out = map[plan.Ref]*health.Diagnosis{}
		}
		out[h.Ref] = h.Diagnosis
	}
	return out
}

// diagnosisText writes why a workload failed, under its line, indented:
//
//	at deploy/web.yaml:1:1
//	2 pods: container web: ImagePullBackOff: Back-off pulling image "web:nope"
//	  pod web-7d9c-abcde, 3 restarts, exit code 1
//	  termination message: ...
//	  log (last 20 lines, previous instance):
//	    | line
//	events:
//	  Pod/web-7d9c-abcde Failed (x3): Failed to pull image ...
//	  Pod/web-7d9c-* (2 pods) BackOff (x5): Back-off restarting ...
//	missing permission: get pods/log: the containers' logs
//
// Every text from the cluster is written with control characters
// escaped; Secret values were masked by the engine.
func diagnosisText(b *strings.Builder, d *health.Diagnosis) {
	if d.Source != "" {
		fmt.Fprintf(b, "  at %s\n", printable(d.Source))
	}
	for _, c := range d.Causes {
		head := "  "
		if c.Pods > 1 {
			head += fmt.Sprintf("%d pods: ", c.Pods)
		}
		if c.Container != "" {
			kind := "container"
			if c.Init {
				kind = "init container"
			}
			head += fmt.Sprintf("%s %s: ", kind, printable(c.Container))
		}
		head += printable(c.Reason)
		if c.Message != "" {
			head += ": " + printable(c.Message)
		}
		b.WriteString(head + "\n")
		var facts []string
		if c.Pod != "" {
			facts = append(facts, "pod "+printable(c.Pod))
		}
		if c.Restarts > 0 {
			facts = append(facts, plural(int(c.Restarts), "restart"))
		}
		if c.ExitCode != 0 {
			facts = append(facts, fmt.Sprintf("exit code %d", c.ExitCode))
		}
		if len(facts) > 0 {
			fmt.Fprintf(b, "    %s\n", strings.Join(facts, ", "))
		}
		if c.TerminationMessage != "" {
			fmt.Fprintf(b, "    termination message: %s\n", printable(c.TerminationMessage))
		}
		if len(c.Log) > 0 {
			which := ""
			if c.Previous {
				which = ", previous instance"
			}
			fmt.Fprintf(b, "    log (last %s%s):\n", plural(len(c.Log), "line"), which)
			for _, l := range c.Log {
				fmt.Fprintf(b, "      | %s\n", printable(l))
			}
		}
		if c.LogNote != "" {
			fmt.Fprintf(b, "    %s\n", printable(c.LogNote))
		}
	}
	if len(d.Events) > 0 {
		b.WriteString("  events:\n")
		for _, e := range d.Events {
			// A group of pods' events says how many pods, and how many
			// times in all when that is more than once per pod.
			pods, count := "", ""
			if e.Pods > 1 {
				pods = fmt.Sprintf(" (%d pods)", e.Pods)
			}
			if e.Count > max(1, e.Pods) {
				count = fmt.Sprintf(" (x%d)", e.Count)
			}
			fmt.Fprintf(b, "    %s%s %s%s: %s\n", printable(e.Object), pods, printable(e.Reason), count, printable(e.Note))
		}
	}
	for _, m := range d.Missing {
		fmt.Fprintf(b, "  %s\n", printable(m))
	}
}
