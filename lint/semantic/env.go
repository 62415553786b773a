package semantic

import (
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
)

// envFieldPaths are the fields env vars may read with fieldRef (labels and
// annotations only one at a time: metadata.labels['app']).
var envFieldPaths = map[string]bool{
	"metadata.name": true, "metadata.namespace": true, "metadata.uid": true, "spec.nodeName": true,
	"spec.serviceAccountName": true, "status.hostIP": true, "status.hostIPs": true, "status.podIP": true,
	"status.podIPs": true,
}

// env checks a container's env: names, and a valueFrom with exactly one
// source, each source's references.
func (s *sem) env(path []string) {
	seen := map[string]bool{}
	s.items(path, func(e []string, m map[string]any) {
		name, _ := m["name"].(string)
		switch {
		case name == "":
			s.required(s.at(e, "name"), "every env var needs a name")
		case seen[name]:
			// env is a list map keyed by name: server-side apply refuses
			// two entries with one name
			s.bad(s.at(e, "name"), "Duplicate value: %q: server-side apply refuses duplicate entries for key name; keep one", name)
		default:
			s.msgs(s.at(e, "name"), name, validation.IsRelaxedEnvVarName(name))
		}
		seen[name] = true
		vf, ok := m["valueFrom"].(map[string]any)
		if !ok {
			return
		}
		from := s.at(e, "valueFrom")
		n := 0
		for _, k := range []string{"fieldRef", "resourceFieldRef", "configMapKeyRef", "secretKeyRef", "fileKeyRef"} {
			if vf[k] != nil {
				n++
			}
		}
		switch {
		case n == 0:
			s.bad(from, "Invalid value: must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`")
			return
		case n > 1:
			s.bad(from, "Invalid value: may not have more than one field specified at a time")
		}
		if v, _ := m["value"].(string); v != "" {
			s.bad(from, "Invalid value: may not be specified when `value` is not empty; keep one of them")
		}
		s.fieldRef(s.at(from, "fieldRef"), envFieldPaths)
		s.resourceFieldRef(s.at(from, "resourceFieldRef"))
		s.keyRef(s.at(from, "configMapKeyRef"))
		s.keyRef(s.at(from, "secretKeyRef"))
	})
}

// fieldRef checks a downward API field reference.
func (s *sem) fieldRef(path []string, allowed map[string]bool) {
	if s.m(path) == nil {
		return
	}
	fp, _ := s.str(s.at(path, "fieldPath"))
	if fp == "" {
		s.required(s.at(path, "fieldPath"), "name the field to read, such as metadata.name")
		return
	}
	base, sub, subscripted := strings.Cut(fp, "[")
	if subscripted {
		key := strings.TrimSuffix(strings.Trim(strings.TrimSuffix(sub, "]"), `'"`), "'")
		switch base {
		case "metadata.labels":
			s.msgs(s.at(path, "fieldPath"), key, QualifiedName(key))
		case "metadata.annotations":
			s.msgs(s.at(path, "fieldPath"), key, QualifiedName(strings.ToLower(key)))
		default:
			s.bad(s.at(path, "fieldPath"), "Invalid value: %q: does not support subscript", base)
		}
		return
	}
	if !allowed[fp] {
		s.bad(s.at(path, "fieldPath"), "Unsupported value: %q: not a field the downward API serves here (metadata.name, metadata.namespace, metadata.labels, ...)", fp)
	}
}

// resourceFields are what resourceFieldRef may read.
var resourceFields = map[string]string{
	"limits.cpu": "cpu", "limits.memory": "memory", "limits.ephemeral-storage": "storage",
	"requests.cpu": "cpu", "requests.memory": "memory", "requests.ephemeral-storage": "storage",
}

// resourceFieldRef checks resource and divisor.
func (s *sem) resourceFieldRef(path []string) {
	if s.m(path) == nil {
		return
	}
	res, _ := s.str(s.at(path, "resource"))
	kind, known := resourceFields[res]
	switch {
	case res == "":
		s.required(s.at(path, "resource"), "name the resource to read, such as limits.cpu")
		return
	case !known && !strings.HasPrefix(res, "limits.hugepages-") && !strings.HasPrefix(res, "requests.hugepages-"):
		s.bad(s.at(path, "resource"), "Unsupported value: %q: supported values: %s", res, quoteAll(sortedKeys(resourceFields)))
		return
	}
	d, ok := s.quantity(s.at(path, "divisor"))
	if !ok || d.IsZero() {
		return
	}
	valid := map[string]bool{"1": true, "1k": true, "1M": true, "1G": true, "1T": true, "1P": true, "1E": true,
		"1Ki": true, "1Mi": true, "1Gi": true, "1Ti": true, "1Pi": true, "1Ei": true}
	if kind == "cpu" {
		valid = map[string]bool{"1m": true, "1": true}
	}
	if !valid[d.String()] {
		s.bad(s.at(path, "divisor"), "Invalid value: %q: not a divisor %s supports (cpu: 1m or 1; memory and storage: 1, 1k, 1Ki, 1M, 1Mi, ...)", d.String(), res)
	}
}

// keyRef checks a configMapKeyRef or secretKeyRef: a valid object name
// and key.
func (s *sem) keyRef(path []string) {
	m := s.m(path)
	if m == nil {
		return
	}
	name, _ := m["name"].(string)
	s.msgs(s.at(path, "name"), name, DNS1123Subdomain(name))
	key, _ := m["key"].(string)
	if key == "" {
		s.required(s.at(path, "key"), "name the key to read")
	} else {
		s.msgs(s.at(path, "key"), key, validation.IsConfigMapKey(key))
	}
}

// envFrom checks each source: exactly one of configMapRef and secretRef,
// named; a valid prefix.
func (s *sem) envFrom(path []string) {
	s.items(path, func(e []string, m map[string]any) {
		n := 0
		for _, k := range []string{"configMapRef", "secretRef"} {
			ref, ok := m[k].(map[string]any)
			if !ok {
				continue
			}
			n++
			name, _ := ref["name"].(string)
			if name == "" {
				s.required(s.at(e, k, "name"), "name the "+strings.TrimSuffix(k, "Ref"))
			} else {
				s.msgs(s.at(e, k, "name"), name, DNS1123Subdomain(name))
			}
		}
		if n != 1 {
			s.bad(e, "Invalid value: must specify one of: `configMapRef` or `secretRef`")
		}
		if prefix, _ := m["prefix"].(string); prefix != "" {
			s.msgs(s.at(e, "prefix"), prefix, validation.IsRelaxedEnvVarName(prefix))
		}
	})
}

// quantity parses the quantity at path as the API server decodes it
// (a string, trimmed, or a number); ok is false when it is missing or
// invalid, which it reports.
func (s *sem) quantity(path []string) (resource.Quantity, bool) {
	return s.quantityOf(s.get(path), path, nil)
}

// quantityOf is quantity for the value v, found at path, or at base+key
// when path is nil (made only for a finding).
func (s *sem) quantityOf(v any, path, base []string, key ...string) (resource.Quantity, bool) {
	var str string
	switch v := v.(type) {
	case nil:
		return resource.Quantity{}, false
	case string:
		str = strings.TrimSpace(v)
	case int64, float64:
		q, err := resource.ParseQuantity(strings.TrimSpace(formatNumber(v)))
		return q, err == nil
	default:
		return resource.Quantity{}, false // the schema reports the type
	}
	q, err := resource.ParseQuantity(str)
	if err != nil {
		if path == nil {
			path = s.at(base, key...)
		}
		s.bad(path, "Invalid value: %q: %v; write a quantity such as 500m, 2, 256Mi or 1Gi", v, err)
		return q, false
	}
	return q, true
}
