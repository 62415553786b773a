package lint

import (
	"encoding/base64"
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/api/validation/path"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/kubeplan/kubeplan/internal/sops"
	"github.com/kubeplan/kubeplan/lint/semantic"
	"github.com/kubeplan/kubeplan/manifest"
)

// Rule ids of the object-meta checks.
const (
	ruleInvalidMeta = "invalid-meta"
	ruleSecretData  = "secret-data-not-base64"
)

// nameFunc validates a name, or a generateName prefix (which may end in
// "-"), returning the validator's messages.
type nameFunc func(name string, prefix bool) []string

// maskTrailingDash lets a generateName prefix end in "-", as the API
// server does.
func maskTrailingDash(name string) string {
	if len(name) > 1 && strings.HasSuffix(name, "-") {
		return name[:len(name)-1] + "a"
	}
	return name
}

func dnsSubdomain(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return semantic.DNS1123Subdomain(name)
}

func dnsLabel(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return semantic.DNS1123Label(name)
}

func dns1035Label(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return validation.IsDNS1035Label(name)
}

// subdomainGroups are the built-in API groups whose kinds the API server
// names as DNS-1123 subdomains (k8s.io/kubernetes pkg/apis/*/validation).
// Custom resources are named so too. (policy's PodDisruptionBudget names
// are only path segments: its validation does not check the name.)
var subdomainGroups = map[string]bool{
	"": true, "apps": true, "batch": true, "autoscaling": true,
	"networking.k8s.io": true, "storage.k8s.io": true, "scheduling.k8s.io": true,
	"apiextensions.k8s.io": true, "admissionregistration.k8s.io": true,
	"discovery.k8s.io": true, "node.k8s.io": true, "events.k8s.io": true,
}

// nameRule is how the API server validates the name of o's kind: Namespace
// names are DNS-1123 labels, Service names DNS-1035 labels, RBAC names path
// segments; other built-in kinds we are not sure of get the path-segment
// rule every name obeys, so that no valid name is flagged.
func nameRule(o *manifest.Object) (nameFunc, string) {
	g := o.Group()
	switch {
	case g == "" && o.Kind == "Namespace":
		return dnsLabel, "a DNS-1123 label"
	case g == "" && o.Kind == "Service":
		// DNS-1035 before 1.36; RelaxedServiceNameValidation (GA in
		// 1.37) allows a leading digit. The older rule would flag names
		// a 1.37 server accepts.
		return dnsLabel, "a DNS-1123 label"
	case g == "apps" && o.Kind == "StatefulSet":
		return dnsLabel, "a DNS-1123 label" // its pods' hostnames
	case g == "networking.k8s.io" && o.Kind == "IPAddress":
		// named by the address itself, IPv6 colons included
		return path.ValidatePathSegmentName, "a path segment"
	case subdomainGroups[g] || !builtinGroup(g):
		return dnsSubdomain, "a DNS-1123 subdomain"
	}
	return path.ValidatePathSegmentName, "a path segment"
}

// builtinGroup reports whether g is (or may be) an API group of Kubernetes
// itself: no dot, or under k8s.io but not a well-known CRD group.
func builtinGroup(g string) bool {
	return !strings.Contains(g, ".") || (strings.HasSuffix(g, ".k8s.io") && !strings.HasPrefix(g, "gateway.") && !strings.HasPrefix(g, "snapshot."))
}

// cronJobNameMax is the longest CronJob name: its Jobs' names add 11
// characters and must stay DNS-1035-label length.
const cronJobNameMax = validation.DNS1035LabelMaxLength - 11

// metaFindings checks metadata the way the API server does before storing
// an object: name, generateName, namespace, label keys and values,
// annotation keys and their total size; and that a Secret's data values
// are base64. Values of a Secret are never quoted in a message.
func metaFindings(o *manifest.Object) []Finding {
	var out []Finding
	add := func(p []string, msg string) {
		out = append(out, objectFinding(o, p, Error, ruleInvalidMeta, fieldPath(p)+": "+msg))
	}
	addKey := func(p []string, msg string) {
		f := objectFinding(o, p, Error, ruleInvalidMeta, fieldPath(p)+": "+msg)
		pos := o.KeyPos(p...)
		f.Line, f.Col, f.EndLine, f.EndCol = pos.Line, pos.Col, 0, 0
		out = append(out, f)
	}
	valid, what := nameRule(o)
	for _, field := range []string{"name", "generateName"} {
		v, ok := o.Get("metadata", field)
		s, isString := v.(string)
		if !ok || !isString || s == "" {
			continue
		}
		for _, m := range valid(s, field == "generateName") {
			add([]string{"metadata", field}, fmt.Sprintf("%q is not a valid %s %s (%s): %s", s, o.Kind, field, what, m))
		}
	}
	if o.Group() == "batch" && o.Kind == "CronJob" && len(o.Name) > cronJobNameMax {
		add([]string{"metadata", "name"}, fmt.Sprintf("a CronJob name must be no more than %d characters (its Jobs add 11)", cronJobNameMax))
	}
	if ns := o.GetString("metadata", "namespace"); ns != "" {
		for _, m := range semantic.DNS1123Label(ns) {
			add([]string{"metadata", "namespace"}, fmt.Sprintf("%q is not a valid namespace name: %s", ns, m))
		}
	}
	labels := o.Labels()
	for _, k := range sortedKeys(labels) {
		p := []string{"metadata", "labels", k}
		for _, m := range semantic.QualifiedName(k) {
			addKey(p, "label key "+m)
		}
		for _, m := range semantic.LabelValue(labels[k]) {
			add(p, "label value "+m)
		}
	}
	ann := o.Annotations()
	size := 0
	for _, k := range sortedKeys(ann) {
		size += len(k) + len(ann[k])
		// case does not matter in annotation keys
		for _, m := range semantic.QualifiedName(strings.ToLower(k)) {
			addKey([]string{"metadata", "annotations", k}, "annotation key "+m)
		}
	}
	if size > totalAnnotationSizeLimit {
		add([]string{"metadata", "annotations"}, fmt.Sprintf("annotations total %d bytes; the API server accepts at most %d (256 KiB)", size, totalAnnotationSizeLimit))
	}
	return append(out, secretDataFindings(o)...)
}

// totalAnnotationSizeLimit is the API server's limit on the keys and
// values of all annotations of an object.
const totalAnnotationSizeLimit = 256 * 1024

// secretDataFindings reports data values of a Secret that are not base64:
// the API server refuses them.
func secretDataFindings(o *manifest.Object) []Finding {
	if o.Group() != "" || o.Kind != "Secret" {
		return nil
	}
	v, _ := o.Get("data")
	data, _ := v.(map[string]any)
	var out []Finding
	for _, k := range sortedKeys(data) {
		s, ok := data[k].(string)
		if !ok {
			continue // the schema reports a wrong type
		}
		if o.Encrypted && sops.IsEncryptedValue(s) {
			continue // SOPS ciphertext of the base64 value
		}
		if _, err := base64.StdEncoding.DecodeString(s); err != nil {
			p := []string{"data", k}
			out = append(out, objectFinding(o, p, Error, ruleSecretData,
				fieldPath(p)+": is not valid base64; the API server decodes data values (put plain text under stringData instead)"))
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
