package main

import (
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// crashLoopCanary is the Secret value crashLoopSet's container prints.
const crashLoopCanary = "hunter2-canary-9f3"

// crashLoopSet is a Secret and a Deployment whose container (the
// testcluster's tag crashloop) prints its args, one of them a Secret-backed
// variable, and exits 1, again and again.
var crashLoopSet = testkube.CrashLoopSet(crashLoopCanary)

// crashLoopCause is what the text output says of crashLoopSet's failure,
// whatever the identity may read: the workload, where it is defined, the
// container, the reason and the last exit.
var crashLoopCause = []string{
	"deployment.apps/web created\n  at ",
	"app.yaml:10:1\n",
	"container main: CrashLoopBackOff: back-off 10s restarting failed container=main pod=web-",
	"restart",
	"exit code 1",
}

// crashLoopRead is what it adds for an identity that may read pods/log and
// list events: the previous instance's log, masked, and the BackOff event.
var crashLoopRead = []string{
	"log (last 2 lines, previous instance):\n",
	"| connecting with password ***\n",
	"| fatal: cannot connect\n",
	"  events:\n",
	"BackOff: Back-off restarting failed container main in pod web-",
}

// wantMasked fails t when the value of crashLoopSet's Secret was printed.
func wantMasked(t *testing.T, stdout, stderr string) {
	t.Helper()
	if strings.Contains(stdout+stderr, crashLoopCanary) {
		t.Errorf("the Secret's value was printed:\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
}

// A crash-looping container fails apply at once, for the narrow edit
// identity, and the output shows the reason, the restart, the previous
// instance's log read through pods/log, with the Secret-backed value the
// container printed masked: the value appears in no output.
func TestIntegrationApplyCrashLoopLogMasked(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := c.Narrow(t, "crashloop", ns)
	_, stdout, stderr := applyFailing(t, kc, ns, failingApply{applyset: "crashloop", files: map[string]string{"app.yaml": crashLoopSet}})
	wantAll(t, "stdout", stdout, crashLoopCause...)
	wantAll(t, "stdout", stdout, crashLoopRead...)
	wantMasked(t, stdout, stderr)
	wantNamed(t, stderr, "deployment.apps/web", "CrashLoopBackOff")
}
