package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/health"
)

func TestStatusShowsTheLastFailure(t *testing.T) {
	st := &apply.Status{ApplySet: "configmap/kubeplan-web", Namespace: "shop", Tooling: "kubeplan/v1", Result: "failed",
		LastError: "deployment.apps/web: CrashLoopBackOff",
		LastFailure: &apply.LastFailure{Version: apply.LastFailureVersion, Truncated: true, Workloads: []apply.FailedWorkload{{
			Workload: "deployment.apps/web", Namespace: "shop", Status: "Failed", Reason: "CrashLoopBackOff",
			Diagnosis: health.Diagnosis{Source: "deploy/web.yaml:1:1",
				Causes: []health.Cause{{Signal: health.Signal{Pod: "web-1", Container: "main", Reason: "CrashLoopBackOff", Message: "back-off", Restarts: 3, ExitCode: 1},
					Pods: 2, Log: []string{"starting", "password=***\x1b[31m"}}},
				Events: []health.Event{{Object: "Pod/web-1", Reason: "BackOff", Note: "Back-off restarting failed container", Count: 4}}}}}}}
	var b bytes.Buffer
	if err := Status(&b, "text", st); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"Last failure:\n  deployment.apps/web in namespace shop: CrashLoopBackOff\n",
		"    at deploy/web.yaml:1:1\n", "    2 pods: container main: CrashLoopBackOff: back-off\n", "      pod web-1, 3 restarts, exit code 1\n",
		"        | password=***\\x1b[31m\n", "      Pod/web-1 BackOff (x4): Back-off", "(truncated:", "Members:   0\nLast failure:"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b") {
		t.Errorf("a control character from the cluster was written raw:\n%q", out)
	}
	b.Reset()
	if err := Status(&b, "json", st); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		LastFailure struct {
			Truncated bool `json:"truncated"`
			Workloads []struct {
				Workload, Reason, Source string
				Causes                   []struct {
					Container string
					Pods      int
					Log       []string
				}
			}
		} `json:"lastFailure"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	w := doc.LastFailure.Workloads
	if !doc.LastFailure.Truncated || len(w) != 1 || w[0].Reason != "CrashLoopBackOff" || w[0].Source != "deploy/web.yaml:1:1" ||
		w[0].Causes[0].Container != "main" || w[0].Causes[0].Pods != 2 || len(w[0].Causes[0].Log) != 2 {
		t.Errorf("json: %s", b.String())
	}
}
