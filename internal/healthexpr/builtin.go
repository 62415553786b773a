package healthexpr

import (
	"fmt"
	"sync"

	yaml "go.yaml.in/yaml/v3"
)

// BuiltinYAML are the built-in rules, as docs/health.md shows them word
// for word (a test checks). Each rests on the status its operator writes:
//
//   - cert-manager's Certificate is Ready=True when its certificate is
//     issued and up to date; while it is issued its Issuing condition is
//     True, and a failed issuance sets Issuing=False with reason Failed
//     (cert-manager retries it later, with a back-off).
//   - cert-manager's Issuer and ClusterIssuer are Ready=True once set up,
//     Ready=False when they cannot be (an ACME account not registered, a
//     CA Secret missing).
//   - external-secrets' ExternalSecret is Ready=True (SecretSynced) once
//     its Secret is written, Ready=False with reason SecretSyncedError
//     when the provider refused or the data is not there.
//   - Bitnami's SealedSecret is Synced=True once unsealed into its
//     Secret, Synced=False when it cannot be (no key could decrypt it).
//   - Argo Rollouts' Rollout has status.phase: Healthy, Progressing,
//     Paused or Degraded (aborted, or its progress deadline passed).
//   - Flagger's Canary has status.phase: Initialized or Succeeded when
//     done, Failed when its analysis rolled it back, others on the way.
//   - Crossplane's composite resource claims, whose kinds every platform
//     names: a namespaced object with spec.compositeDeletePolicy, which
//     every claim CRD defaults and no other kind is known to have
//     (spec.resourceRef alone is too common a name: an unrelated kind
//     matched would wait for conditions it never gets).
//     Synced=False is a reconcile error; healthy is Synced and Ready.
const BuiltinYAML = `- name: cert-manager-certificate
  apiVersion: cert-manager.io/v1
  kind: Certificate
  inProgress: status.?conditions.orValue([]).exists(c, c.type == 'Issuing' && c.status == 'True')
  failed: status.?conditions.orValue([]).exists(c, c.type == 'Issuing' && c.status == 'False' && c.reason == 'Failed')
  current: status.?conditions.orValue([]).exists(c, c.type == 'Ready' && c.status == 'True')
- name: cert-manager-issuer
  apiVersion: cert-manager.io/v1
  kind: Issuer
  failed: status.?conditions.orValue([]).exists(c, c.type == 'Ready' && c.status == 'False')
  current: status.?conditions.orValue([]).exists(c, c.type == 'Ready' && c.status == 'True')
- name: cert-manager-clusterissuer
  apiVersion: cert-manager.io/v1
  kind: ClusterIssuer
  failed: status.?conditions.orValue([]).exists(c, c.type == 'Ready' && c.status == 'False')
  current: status.?conditions.orValue([]).exists(c, c.type == 'Ready' && c.status == 'True')
- name: external-secrets-externalsecret
  apiVersion: external-secrets.io/v1
  kind: ExternalSecret
  failed: status.?conditions.orValue([]).exists(c, c.type == 'Ready' && c.status == 'False' && c.reason == 'SecretSyncedError')
  current: status.?conditions.orValue([]).exists(c, c.type == 'Ready' && c.status == 'True')
- name: sealed-secrets-sealedsecret
  apiVersion: bitnami.com/v1alpha1
  kind: SealedSecret
  failed: status.?conditions.orValue([]).exists(c, c.type == 'Synced' && c.status == 'False')
  current: status.?conditions.orValue([]).exists(c, c.type == 'Synced' && c.status == 'True')
- name: argo-rollouts-rollout
  apiVersion: argoproj.io/v1alpha1
  kind: Rollout
  failed: status.?phase.orValue('') == 'Degraded'
  current: status.?phase.orValue('') == 'Healthy'
- name: flagger-canary
  apiVersion: flagger.app/v1beta1
  kind: Canary
  failed: status.?phase.orValue('') == 'Failed'
  current: status.?phase.orValue('') in ['Initialized', 'Succeeded']
- name: crossplane-claim
  apiVersion: '*'
  kind: '*'
  match: has(metadata.namespace) && has(spec.compositeDeletePolicy)
  failed: status.?conditions.orValue([]).exists(c, c.type == 'Synced' && c.status == 'False')
  current: >-
    status.?conditions.orValue([]).exists(c, c.type == 'Synced' && c.status == 'True') &&
    status.?conditions.orValue([]).exists(c, c.type == 'Ready' && c.status == 'True')
`

// builtinRule is one entry of BuiltinYAML.
type builtinRule struct {
	Name       string `yaml:"name"`
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Match      string `yaml:"match"`
	Current    string `yaml:"current"`
	InProgress string `yaml:"inProgress"`
	Failed     string `yaml:"failed"`
}

// ParseBuiltins reads rules written as BuiltinYAML is (docs/health.md's
// block, for its test).
func ParseBuiltins(text string) ([]Rule, error) {
	var bs []builtinRule
	if err := yaml.Unmarshal([]byte(text), &bs); err != nil {
		return nil, err
	}
	out := make([]Rule, len(bs))
	for i, b := range bs {
		out[i] = Rule{APIVersion: b.APIVersion, Kind: b.Kind, Current: b.Current, InProgress: b.InProgress, Failed: b.Failed, name: b.Name, match: b.Match}
	}
	return out, nil
}

// BuiltinRules are the built-in rules, in order (a copy).
func BuiltinRules() []Rule {
	rs, _ := ParseBuiltins(BuiltinYAML)
	return rs
}

// BuiltinName is a built-in rule's name ("" for a user's rule).
func (r Rule) BuiltinName() string { return r.name }

// Match is a built-in rule's match expression ("" for a rule of one kind).
func (r Rule) Match() string { return r.match }

// builtinCompiled are the built-in rules, compiled once; a built-in that
// does not compile is a bug of kubeplan's, and panics (a test compiles
// them all).
var builtinCompiled = sync.OnceValue(func() []*Compiled {
	rs, err := ParseBuiltins(BuiltinYAML)
	if err != nil {
		panic(fmt.Sprintf("healthexpr: built-in rules: %v", err))
	}
	out := make([]*Compiled, len(rs))
	for i, r := range rs {
		c, err := compileRule(r)
		if err != nil {
			panic(fmt.Sprintf("healthexpr: built-in rule %s: %v", r.name, err))
		}
		out[i] = c
	}
	return out
})

// Builtins is the Set of the built-in rules alone.
var Builtins = sync.OnceValue(func() *Set {
	s, err := Compile(nil)
	if err != nil {
		panic(fmt.Sprintf("healthexpr: built-in rules: %v", err))
	}
	return s
})
