package lint

import (
	"sort"

	"github.com/kubeplan/kubeplan/lint/admission"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/helm"
	"github.com/kubeplan/kubeplan/policies"
)

// RuleInfo describes one rule for --list-rules, SARIF and config checks.
type RuleInfo struct {
	ID          string   `json:"id"`
	Severity    Severity `json:"severity"`
	Description string   `json:"description"`
	// Policy is true for the built-in policies of package policies, false
	// for the checks lint itself makes (YAML, schema, APIs).
	Policy bool `json:"policy"`
	// HelpURI is an absolute URL documenting the rule, when there is one.
	HelpURI string `json:"helpUri,omitempty"`
}

// checks are the findings lint itself makes.
var checks = []RuleInfo{
	{ID: "invalid-yaml", Severity: Error, Description: "the file is not valid UTF-8 YAML or JSON (syntax, tabs, binary data, alias bombs, oversized documents)"},
	{ID: ruleYAML11, Severity: Error, Description: "an unquoted value YAML 1.1 (kubectl, Helm, Argo CD) reads as a boolean or number where a string is wanted (on, yes, NO, 0755, 1e3, 1:20): quote it; a warning for yes/on/no/off where a boolean is wanted"},
	{ID: "duplicate-key", Severity: Error, Description: "a mapping sets the same key twice; YAML keeps only one of them"},
	{ID: "not-an-object", Severity: Error, Description: "a document is a list or a scalar where a Kubernetes object was expected"},
	{ID: manifest.RuleToolConfig, Severity: Info, Description: "a tool's configuration that looks like an object (kubeconfig, kind, kubeadm, kubelet, skaffold, kustomize, kpt, k3d, Talos, audit Policy, EncryptionConfiguration, ...): recognised by apiVersion and kind, not linted, never applied"},
	{ID: "schema", Severity: Error, Description: "the object does not match its Kubernetes schema (wrong types, unknown fields, missing required fields)"},
	{ID: "unknown-api", Severity: Error, Description: "the Kubernetes version does not serve this apiVersion/kind; names what it serves instead"},
	{ID: "removed-api", Severity: Error, Description: "the apiVersion was removed from Kubernetes; names its replacement"},
	{ID: "deprecated-api", Severity: Warning, Description: "the apiVersion is deprecated and will be removed; names its replacement"},
	{ID: "missing-schema", Severity: Error, Description: "a custom resource whose CustomResourceDefinition is not in the set or in --crds"},
	{ID: "crd-schema", Severity: Error, Description: "a custom resource does not match the openAPIV3Schema of its CRD (or the CRD schema is invalid)"},
	{ID: "crd-validation", Severity: Error, Description: "a custom resource fails an x-kubernetes-validations CEL rule of its CRD"},
	{ID: "kustomize", Severity: Error, Description: "kustomize could not build a kustomization directory, or it reads outside the repository or fetches a remote resource (refused)"},
	{ID: "kustomize-deprecated", Severity: Warning, Description: "a kustomization uses a field kustomize deprecates (bases, commonLabels, patchesStrategicMerge, ...); names its replacement"},
	{ID: "helm-chart", Severity: Error, Description: "a Helm chart does not load (a bad Chart.yaml, a kubeVersion constraint the Kubernetes version misses) or a kustomize helmCharts entry names a chart not vendored"},
	{ID: "helm-dependency", Severity: Error, Description: "a dependency Chart.yaml declares is missing from charts/ (kubeplan never downloads: run helm dependency build)"},
	{ID: "helm-template", Severity: Error, Description: "a Helm template fails to render (a parse error, a nil pointer, required or fail), at the template's line:column"},
	{ID: "helm-values-schema", Severity: Error, Description: "the values do not match the chart's values.schema.json, at the values key that set them"},
	{ID: helm.RuleGenerated, Severity: Info, Description: "a Helm template calls a function that makes a new value at every render (randAlphaNum, uuidv4, genCA, genSignedCert, genPrivateKey, now...): when the object exists, plan and apply keep the live value of the fields it makes"},
	{ID: "helm-lookup", Severity: Warning, Description: "a Helm template calls lookup, which reads the cluster; rendering offline it returns an empty map"},
	{ID: ruleInvalidMeta, Severity: Error, Description: "metadata the API server refuses: name, generateName or namespace not a valid DNS name for the kind, label keys and values, annotation keys, annotations over 256 KiB"},
	{ID: manifest.RuleSOPSDecrypt, Severity: Error, Description: "a SOPS-encrypted file does not decrypt for plan or apply (no key given fits one of its recipients, or its MAC does not match: changed after it was encrypted)"},
	{ID: ruleDanglingRef, Severity: Info, Description: "a pod template references a Secret, ConfigMap, ServiceAccount or PVC that the linted manifests do not provide (it must exist in the cluster; plan checks it there)"},
	{ID: manifest.RuleSOPSIdentity, Severity: Warning, Description: "a SOPS-encrypted file encrypts apiVersion, kind or metadata.name, so lint cannot check the object (plan and apply decrypt it); encrypt only data and stringData"},
	{ID: manifest.RuleSOPSUnencrypted, Severity: Error, Description: "a Secret value in a SOPS-encrypted file is in the clear where SOPS's rules encrypt it (added by hand after encrypting)"},
	{ID: ruleSecretData, Severity: Error, Description: "a Secret's data value is not base64 (plain text goes under stringData)"},
	{ID: admission.Rule, Severity: Error, Description: "a ValidatingAdmissionPolicy in the set, in --policies or under policies: in kubeplan.yaml refuses the object (Deny: error, Warn: warning, Audit: info), or a policy itself does not compile; expressions on authorizer or request.userInfo are reported as not evaluable offline (info)"},
	{ID: ruleOrderAnnotation, Severity: Error, Description: "an ordering annotation kubeplan reads as Argo CD or kapp do has a value they do not allow: a sync-wave that is not an integer, an unknown hook phase or hook-delete-policy, a malformed kapp change rule or group name (docs/ordering.md)"},
	{ID: ruleOrderUnknownGroup, Severity: Error, Description: "a kapp change rule names a change group no object in the set has (a typo, or the group's objects are missing)"},
	{ID: ruleOrderCycle, Severity: Error, Description: "kapp change rules that wait on each other (a cycle, naming the objects and rules), or a rule that the Argo CD phases and waves contradict"},
	{ID: rulePodSecurity, Severity: Error, Description: "a pod template (Pod, Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob, ReplicationController) breaks its namespace's Pod Security level, judged with the API server's own checks: enforce is an error (the pods will be refused), warn and audit a warning; the levels come from the Namespace's pod-security.kubernetes.io labels in the set, else podSecurity: in kubeplan.yaml or --pod-security"},
	{ID: ruleInvalidValue, Severity: Error, Description: "a value the API server refuses though its type fits the schema: quantities, enums, ports, names of containers, ports and volumes, label selectors that miss the pod template, duplicates, references to missing volumes, required fields the schema does not mark"},
}

// Rules lists every rule id lint can report, sorted by id.
func Rules() []RuleInfo {
	out := append([]RuleInfo{}, checks...)
	for _, r := range policies.All() {
		sev, _ := ParseSeverity(r.Severity)
		out = append(out, RuleInfo{ID: r.ID, Severity: sev, Description: r.Description, Policy: true})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// KnownRule reports whether id names a rule.
func KnownRule(id string) bool {
	for _, r := range Rules() {
		if r.ID == id {
			return true
		}
	}
	return false
}
