package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// Manifests of one failure class each, on the testcluster's simulated node
// (testcluster/README.md): an image tag makes a container crash or be OOM
// killed, a request above the node's allocatable is never scheduled, a
// missing Secret key stops the container being created, an image name
// that does not parse is never pulled.
// testkube.Deployment's container (main) is its last lines: more of its
// fields, or more of the pod's, follow it.
var (
	// oomSet: a container OOM killed at every run (tag oomkilled), which
	// the kubelet restarts; its args are its log.
	oomSet = testkube.Deployment("hungry", "registry.example/hungry:oomkilled", 1) +
		"        args: [\"loading the catalogue\", \"allocating 8Gi\"]\n"
	// unschedulableSet: requests twice the node's allocatable.
	unschedulableSet = testkube.Deployment("big", "registry.example/big:1", 1) +
		"        resources:\n          requests: {cpu: \"32\", memory: 128Gi}\n"
	// missingKeySet: a Secret without the key the container's env names.
	missingKeySet = `apiVersion: v1
kind: Secret
metadata:
  name: app
  annotations:
    kubeplan.dev/ignore: plaintext-secret
stringData:
  user: shop
---
` + testkube.Deployment("api", "registry.example/api:1", 1) + `        env:
        - name: PASSWORD
          valueFrom:
            secretKeyRef: {name: app, key: password}
`
	// initSet: an init container that fails at every run, before the
	// main container could start.
	initSet = testkube.Deployment("shop", "registry.example/shop:1", 1) + `      initContainers:
      - name: migrate
        image: registry.example/migrate:crashloop
        args: ["migrating schema", "error: relation orders already exists"]
`
	// jobSet: a Job that may not retry, whose only pod fails.
	jobSet = `apiVersion: batch/v1
kind: Job
metadata:
  name: report
spec:
  backoffLimit: 0
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: main
        image: registry.example/report:crashloop
        args: ["building the report", "error: table sales is locked"]
`
)

// Every failure class of issue 28 fails apply within 30 s of its first
// pod signal (plus the classifier's grace), for the narrow edit identity,
// and the text output names the container, the reason, the Warning events
// the cluster wrote by then (the simulated node writes none for an OOM
// kill or an exit before its back-off) and, when the container ran, its
// log tail. A Job's pod that failed is left to the Job: its Failed
// condition, BackoffLimitExceeded, is the reason apply gives.
func TestIntegrationApplyFailureClasses(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	for _, tc := range []struct {
		name     string
		f        failingApply
		workload string // as apply names it
		reason   string // the reason stderr names
		want     []string
	}{
		{
			name: "oomkilled", workload: "deployment.apps/hungry", reason: "OOMKilled",
			f: failingApply{files: map[string]string{"app.yaml": oomSet}},
			want: []string{
				"deployment.apps/hungry created\n  at ",
				"app.yaml:1:1\n",
				"  container main: OOMKilled",
				"    pod hungry-",
				"restart",
				"exit code 137",
				"previous instance):\n      | loading the catalogue\n      | allocating 8Gi\n",
			},
		},
		{
			name: "failedscheduling", workload: "deployment.apps/big", reason: "FailedScheduling",
			f: failingApply{grace: 30 * time.Second, files: map[string]string{"app.yaml": unschedulableSet}},
			want: []string{
				"deployment.apps/big created\n  at ",
				"  FailedScheduling: 0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory.",
				"    pod big-",
				"  events:\n",
				" FailedScheduling: 0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory.",
			},
		},
		{
			name: "createcontainerconfigerror", workload: "deployment.apps/api", reason: "CreateContainerConfigError",
			f: failingApply{grace: 10 * time.Second, files: map[string]string{"app.yaml": missingKeySet}},
			want: []string{
				"deployment.apps/api created\n  at ",
				"app.yaml:10:1\n",
				"  container main: CreateContainerConfigError: couldn't find key password in Secret ",
				"    pod api-",
				"  events:\n",
				" Failed: Error: couldn't find key password in Secret ",
			},
		},
		{
			name: "initcontainer", workload: "deployment.apps/shop", reason: "InitContainerFailed",
			f: failingApply{files: map[string]string{"app.yaml": initSet}},
			want: []string{
				"deployment.apps/shop created\n  at ",
				"  init container migrate: InitContainerFailed",
				"    pod shop-",
				"exit code 1",
				"      | migrating schema\n      | error: relation orders already exists\n",
			},
		},
		{
			name: "invalidimagename", workload: "deployment.apps/web", reason: "InvalidImageName",
			f: failingApply{files: map[string]string{"app.yaml": testkube.Deployment("web", "registry.example/Web:1", 1)}},
			want: []string{
				"deployment.apps/web created\n  at ",
				"  container main: InvalidImageName: Failed to apply default image tag \"registry.example/Web:1\": couldn't parse image name",
				"    pod web-",
				"  events:\n",
				" InspectFailed: Failed to apply default image tag \"registry.example/Web:1\"",
				" Failed: Error: InvalidImageName\n",
			},
		},
		{
			name: "job", workload: "job.batch/report", reason: "BackoffLimitExceeded",
			f: failingApply{files: map[string]string{"job.yaml": jobSet}},
			want: []string{
				"job.batch/report created\n  at ",
				"job.yaml:1:1\n",
				"  container main: Error",
				"    pod report-",
				"exit code 1",
				"      | building the report\n      | error: table sales is locked\n",
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ns := c.Namespace(t)
			kc := c.Narrow(t, "failure", ns)
			tc.f.applyset = tc.name
			_, stdout, stderr := applyFailing(t, kc, ns, tc.f)
			wantAll(t, "stdout", stdout, tc.want...)
			wantNamed(t, stderr, tc.workload, tc.reason)
			if strings.Contains(stdout, "missing permission") {
				t.Errorf("edit is said to lack a permission:\n%s", stdout)
			}
		})
	}
}

// apply -o json puts the diagnosis in health[].diagnosis with the fields
// docs/output.md documents, the Secret-backed value masked there too.
func TestIntegrationApplyFailureJSON(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := c.Narrow(t, "failure-json", ns)
	_, stdout, stderr := applyFailing(t, kc, ns, failingApply{applyset: "json", args: []string{"-o", "json"},
		files: map[string]string{"app.yaml": crashLoopSet}})
	wantMasked(t, stdout, stderr)
	// The diagnosis as docs/output.md documents it, every field.
	type diagnosis struct {
		Source string `json:"source"`
		Causes []struct {
			Pod                string   `json:"pod"`
			Container          string   `json:"container"`
			Init               bool     `json:"init"`
			Reason             string   `json:"reason"`
			Message            string   `json:"message"`
			Restarts           int64    `json:"restarts"`
			ExitCode           int64    `json:"exitCode"`
			TerminationMessage string   `json:"terminationMessage"`
			Pods               int      `json:"pods"`
			Log                []string `json:"log"`
			Previous           bool     `json:"previous"`
			LogNote            string   `json:"logNote"`
		} `json:"causes"`
		Events []struct {
			Object string `json:"object"`
			Reason string `json:"reason"`
			Note   string `json:"note"`
			Count  int    `json:"count"`
			Pods   int    `json:"pods"`
		} `json:"events"`
		Missing []string `json:"missing"`
	}
	var doc struct {
		Version int `json:"version"`
		Health  []struct {
			Ref struct {
				Kind string `json:"kind"`
				Name string `json:"name"`
			} `json:"ref"`
			Diagnosis json.RawMessage `json:"diagnosis"`
		} `json:"health"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("stdout is not the JSON document: %v\n%s", err, stdout)
	}
	if doc.Version != 1 || doc.Error == "" {
		t.Errorf("version %d, error %q: want 1 and the failure", doc.Version, doc.Error)
	}
	var found bool
	for _, h := range doc.Health {
		if h.Ref.Kind != "Deployment" || h.Ref.Name != "web" {
			continue
		}
		found = true
		if len(h.Diagnosis) == 0 {
			t.Fatalf("deployment web has no diagnosis:\n%s", stdout)
		}
		// A field docs/output.md does not document fails the decoding.
		var d diagnosis
		dec := json.NewDecoder(strings.NewReader(string(h.Diagnosis)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&d); err != nil {
			t.Fatalf("diagnosis: %v\n%s", err, h.Diagnosis)
		}
		if !strings.HasSuffix(d.Source, "app.yaml:10:1") {
			t.Errorf("source %q, want .../app.yaml:10:1", d.Source)
		}
		if len(d.Causes) == 0 {
			t.Fatalf("no causes:\n%s", stdout)
		}
		cause := d.Causes[0]
		if cause.Container != "main" || cause.Init || cause.Reason != "CrashLoopBackOff" || !strings.HasPrefix(cause.Pod, "web-") ||
			cause.Restarts < 1 || cause.ExitCode != 1 || cause.Pods < 1 || !strings.Contains(cause.Message, "back-off") {
			t.Errorf("cause: %+v", cause)
		}
		if strings.Join(cause.Log, "\n") != "connecting with password ***\nfatal: cannot connect" || cause.LogNote != "" || !cause.Previous {
			t.Errorf("log %q, previous %v, note %q: want the previous instance's two lines, masked", cause.Log, cause.Previous, cause.LogNote)
		}
		var backoff bool
		for _, e := range d.Events {
			backoff = backoff || strings.HasPrefix(e.Object, "Pod/web-") && e.Reason == "BackOff" && e.Count >= 1 &&
				strings.HasPrefix(e.Note, "Back-off restarting failed container main")
		}
		if !backoff {
			t.Errorf("no BackOff event of a pod in %+v", d.Events)
		}
		if len(d.Missing) != 0 {
			t.Errorf("missing %q: edit lacks nothing", d.Missing)
		}
	}
	if !found {
		t.Errorf("no health of deployment web:\n%s", stdout)
	}
}
