package guard

import (
	"fmt"
	"testing"
)

// benchGuards are five rules a platform team writes, over objects and
// paths, beside the built-ins.
const benchGuards = `guards:
  rules:
    - name: no-statefulset-replace
      expression: change.action == 'replace' && change.kind == 'StatefulSet'
      outcome: require-approval
      messageExpression: "'replaces statefulset/' + change.name"
    - name: no-critical-prune
      expression: change.action == 'prune' && change.before.?metadata.?labels['data-class'].orValue('') == 'critical'
      outcome: deny
      message: objects labelled data-class critical are never pruned by a pipeline
    - name: warn-loadbalancer
      expression: change.kind == 'Service' && change.after.?spec.?type.orValue('') == 'LoadBalancer'
      outcome: warn
      messageExpression: "'service/' + change.name + ' gets a cloud load balancer'"
    - name: protect-prod
      expression: change.namespace.startsWith('prod-') && change.action in ['prune', 'replace']
      outcome: require-approval
    - name: selector-change
      expression: change.kind == 'Deployment' && change.paths.exists(p, p.startsWith('spec.selector'))
      outcome: deny
      message: a Deployment's selector is immutable
`

// benchChanges is a 1,200-object plan: mostly updates of Deployments,
// Services and ConfigMaps, some creates and prunes.
func benchChanges() []Change {
	out := make([]Change, 0, 1200)
	for i := 0; i < 1200; i++ {
		c := deployUpdate()
		c.Name = fmt.Sprintf("web-%d", i)
		switch i % 6 {
		case 1:
			c = Change{Action: "update", Version: "v1", Kind: "Service", Namespace: "shop", Name: fmt.Sprintf("svc-%d", i),
				Paths: []string{"spec.ports[0].port"}, After: map[string]any{"spec": map[string]any{"type": "ClusterIP"}}}
		case 2:
			c = Change{Action: "create", Version: "v1", Kind: "ConfigMap", Namespace: "shop", Name: fmt.Sprintf("cm-%d", i),
				After: map[string]any{"metadata": map[string]any{"name": "cm"}}}
		case 3:
			c = pvcPrune()
			c.Before["metadata"].(map[string]any)["labels"] = map[string]any{"app": "web"}
		}
		c.Object = "x/" + c.Name
		out = append(out, c)
	}
	return out
}

// BenchmarkEvaluate: the rules over a 1,200-object plan, the cost the lead
// budgets at under 1 s (5% of plan time).
func BenchmarkEvaluate(b *testing.B) {
	s, err := Compile(mustConfig(b, benchGuards))
	if err != nil {
		b.Fatal(err)
	}
	changes := benchChanges()
	p := shopPlan()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Evaluate(p, changes); err != nil {
			b.Fatal(err)
		}
	}
}

func mustConfig(tb testing.TB, text string) Config {
	tb.Helper()
	c, _, err := ParseConfig("kubeplan.yaml", guardsNode(tb, text))
	if err != nil {
		tb.Fatal(err)
	}
	return c
}
