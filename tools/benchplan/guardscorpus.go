package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The release the changed copy of the corpus makes: every object gets
// this version label, and every Deployment goes to 2 replicas and to the
// next major version of its image.
const (
	guardsVersionLabel = "app.kubernetes.io/version"
	guardsVersion      = "2.0.0"
	guardsReplicas     = 2
)

// writeChanged copies the corpus in src to dst as the next release of
// every app would change it, so that a plan of dst against the cluster
// holding src updates every object and the rules judge 1,200 changes,
// not a no-op: each object's top-level labels gain the version label,
// each Deployment goes from 1 to 2 replicas and its image from 1.x.y to
// 2.x.y. The pod templates keep their labels (the selector is unchanged).
func writeChanged(src, dst string) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		body, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			return err
		}
		out, err := changeApp(string(body))
		if err != nil {
			return fmt.Errorf("%s: %w", e.Name(), err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), []byte(out), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// changeApp is one app's file (corpus.go's layout) as writeChanged
// changes it; it refuses a file whose layout it does not recognize, so a
// change to the generator cannot quietly leave objects unchanged.
func changeApp(body string) (string, error) {
	objects := strings.Count("\n"+body, "\nkind: ")
	deployments := strings.Count(body, "\nkind: Deployment\n")
	// The top-level labels are indented by two spaces, the pod
	// template's by six.
	out := strings.ReplaceAll(body, "\n  labels:\n", fmt.Sprintf("\n  labels:\n    %s: %q\n", guardsVersionLabel, guardsVersion))
	if n := strings.Count(out, guardsVersionLabel); n != objects {
		return "", fmt.Errorf("%d of %d objects got the %s label", n, objects, guardsVersionLabel)
	}
	if n := strings.Count(out, "\n  replicas: 1\n"); n != deployments {
		return "", fmt.Errorf("%d of %d Deployments have replicas: 1", n, deployments)
	}
	out = strings.ReplaceAll(out, "\n  replicas: 1\n", fmt.Sprintf("\n  replicas: %d\n", guardsReplicas))
	// The image: registry.example.com/shop/APP:1.x.y -> APP:2.x.y.
	lines := strings.Split(out, "\n")
	bumped := 0
	for i, l := range lines {
		if rest, ok := strings.CutPrefix(l, "          image: registry.example.com/shop/"); ok {
			name, tag, found := strings.Cut(rest, ":1.")
			if !found {
				return "", fmt.Errorf("image %q is not at a 1.x.y tag", strings.TrimSpace(l))
			}
			lines[i] = "          image: registry.example.com/shop/" + name + ":2." + tag
			bumped++
		}
	}
	if bumped != deployments {
		return "", fmt.Errorf("%d of %d Deployments got the next image", bumped, deployments)
	}
	return strings.Join(lines, "\n"), nil
}

// The two kubeplan.yaml files -mode guards plans with, each in a
// directory of its own under -dir and named with --config.
const (
	guardsConfigDir = "guards-config"
	withoutRules    = "without-rules"
	withRules       = "with-rules"
)

// guardsWithoutRules switches every built-in rule off and adds none: the
// same plan, judged by nothing. It is the floor the rules are measured
// against.
const guardsWithoutRules = `# bench-plan-guards, without rules: every built-in rule off, no rules of
# its own (written by tools/benchplan -mode guards).
guards:
  builtin: {protect-pvc: off, protect-namespace: off, protect-crd: off, mass-prune: off}
`

// guardsWithRules keeps the built-in rules on and adds five a platform
// team writes: rules over the objects as they will be (after) and as
// they are (before), over the changed fields (paths), over the plan as a
// whole, and a message computed per change. On the changed corpus
// replicas-changed warns for every Deployment and large-change once; the
// others judge every change and find nothing (guardsExpected).
const guardsWithRules = `# bench-plan-guards, with rules: the built-in rules on and five rules a
# platform team writes (written by tools/benchplan -mode guards).
guards:
  rules:
    - name: no-load-balancers
      expression: "change.kind == 'Service' && change.after.?spec.?type.orValue('ClusterIP') == 'LoadBalancer'"
      outcome: deny
      message: a Service of type LoadBalancer gets a public address; route it through the shared ingress
    - name: no-latest-images
      expression: >-
        change.kind == 'Deployment' &&
        change.after.?spec.?template.?spec.?containers.orValue([]).exists(c, string(c.image).endsWith(':latest'))
      outcome: deny
      messageExpression: "'deployment.apps/' + change.name + ' runs an image tagged :latest: pin a version'"
    - name: keep-critical-data
      expression: "change.action in ['prune', 'replace'] && change.before.?metadata.?labels[?'data-class'].orValue('') == 'critical'"
      outcome: deny
      message: the object is labelled data-class=critical; remove the label in a pull request of its own first
    - name: replicas-changed
      expression: "change.kind == 'Deployment' && 'spec.replicas' in change.paths"
      outcome: warn
      message: the number of replicas changes
      messageExpression: "'scales deployment.apps/' + change.name + ' from ' + string(change.before.spec.replicas) + ' to ' + string(change.after.spec.replicas)"
    - name: large-change
      scope: plan
      expression: "plan.counts['create'] + plan.counts['update'] + plan.counts['adopt'] + plan.counts['replace'] > 500"
      outcome: warn
      messageExpression: "'writes ' + string(plan.counts['create'] + plan.counts['update'] + plan.counts['adopt'] + plan.counts['replace']) + ' objects at once: check that the rollout is meant'"
`

// guardsUserRules is how many rules guardsWithRules adds; guardsBuiltins
// how many built-in rules it keeps on.
const (
	guardsUserRules = 5
	guardsBuiltins  = 4
)

// guardsExpected are the verdicts, by "rule (outcome)", that the plan of
// the changed corpus of s must get with guardsWithRules: one per
// Deployment from replicas-changed, one for the plan from large-change.
func guardsExpected(s spec) map[string]int {
	return map[string]int{
		"replicas-changed (warn)": s.Deployments,
		"large-change (warn)":     1,
	}
}

// writeGuardsConfigs writes the two configs under dir and returns their
// paths relative to dir, without rules first.
func writeGuardsConfigs(dir string) (without, with string, err error) {
	for _, c := range []struct{ name, text string }{{withoutRules, guardsWithoutRules}, {withRules, guardsWithRules}} {
		d := filepath.Join(dir, guardsConfigDir, c.name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", "", err
		}
		if err := os.WriteFile(filepath.Join(d, "kubeplan.yaml"), []byte(c.text), 0o644); err != nil {
			return "", "", err
		}
	}
	rel := func(name string) string { return filepath.Join(guardsConfigDir, name, "kubeplan.yaml") }
	return rel(withoutRules), rel(withRules), nil
}
