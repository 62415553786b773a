package health

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubeplan/kubeplan/internal/healthexpr"
	"github.com/kubeplan/kubeplan/internal/kube"
)

const healthCert = `apiVersion: cert-manager.io/v1
kind: Certificate
metadata: {name: web, namespace: ns, generation: 1}
spec: {secretName: web-tls}
`

// An object a health rule is about is judged by it, not by kstatus: the
// built-in rule without WaitOptions.Rules, the rule of kubeplan.yaml with
// them; failed names the rule.
func TestHealthStateByRule(t *testing.T) {
	refs := []kube.Ref{{Group: "cert-manager.io", Version: "v1", Kind: "Certificate", Resource: "certificates", Namespace: "ns", Name: "web"}}
	state := func(rules *healthexpr.Set) (*healthState, *healthGroup) {
		s := newHealthState(nil, refs, "")
		s.rules = rules
		var g *healthGroup
		s.startGroup = func(gr *healthGroup) { g = gr }
		s.readPods = func(string) {}
		s.locate([]int{0})
		return s, g
	}
	see := func(s *healthState, g *healthGroup, status string) Result {
		u := healthObj(t, healthCert+status)
		s.apply(healthEvent{g: g, listed: true, objs: []*unstructured.Unstructured{u}})
		return s.result(0)
	}
	issuing := "status:\n  conditions:\n  - {type: Ready, status: \"False\", reason: DoesNotExist}\n  - {type: Issuing, status: \"True\"}\n"
	failedIssue := "status:\n  conditions:\n  - {type: Ready, status: \"False\", reason: DoesNotExist}\n  - {type: Issuing, status: \"False\", reason: Failed, message: the order failed}\n"
	ready := "status:\n  conditions:\n  - {type: Ready, status: \"True\"}\n"

	s, g := state(nil)
	if r := see(s, g, issuing); r.Status != InProgress || !strings.Contains(r.Message, "built-in health rule cert-manager-certificate") {
		t.Errorf("issuing: %+v", r)
	}
	if r := see(s, g, failedIssue); r.Status != Failed || !strings.Contains(r.Message, "failed by built-in health rule cert-manager-certificate") {
		t.Errorf("failed issuance: %+v", r)
	}
	if r := see(s, g, ready); r.Status != Current {
		t.Errorf("ready: %+v", r)
	}

	// kubeplan.yaml's rule replaces the built-in: Ready=False is failed.
	rules, err := healthexpr.Compile([]healthexpr.Rule{{APIVersion: "cert-manager.io/v1", Kind: "Certificate", File: "kubeplan.yaml", At: healthexpr.Pos{Line: 2, Col: 5},
		Current: "status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'True')",
		Failed:  "status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'False')"}})
	if err != nil {
		t.Fatal(err)
	}
	s, g = state(rules)
	if r := see(s, g, issuing); r.Status != Failed || !strings.Contains(r.Message, "failed by health rule Certificate.cert-manager.io (kubeplan.yaml:2:5)") {
		t.Errorf("the project's rule: %+v", r)
	}
	// Being deleted: kstatus's Terminating, whatever the rule says.
	u := healthObj(t, strings.Replace(healthCert, "generation: 1", "generation: 1, deletionTimestamp: \"2026-01-01T00:00:00Z\"", 1)+ready)
	s.apply(healthEvent{g: g, listed: true, objs: []*unstructured.Unstructured{u}})
	if r := s.result(0); r.Status != Terminating {
		t.Errorf("deleted: %+v", r)
	}
}
