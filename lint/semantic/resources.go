package semantic

import (
	"fmt"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
)

// formatNumber writes a JSON number as the API server reads it into a
// quantity.
func formatNumber(v any) string {
	switch v := v.(type) {
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

// standardResources are the resource names containers may request without
// a domain.
func standardContainerResource(name string) bool {
	switch name {
	case "cpu", "memory", "ephemeral-storage":
		return true
	}
	return strings.HasPrefix(name, "hugepages-")
}

// resources checks a container's requests and limits: resource names,
// quantities, none negative, each request at most its limit.
func (s *sem) resources(path []string) {
	limits := s.resourceList(s.at(path, "limits"))
	requests := s.resourceList(s.at(path, "requests"))
	for _, name := range sortedKeys(requests) {
		lim, ok := limits[name]
		if !ok {
			continue
		}
		if req := requests[name]; req.Cmp(lim) > 0 {
			s.bad(s.at(path, "requests", name), "Invalid value: %q: must be less than or equal to %s limit of %s; raise the limit or lower the request", req.String(), name, lim.String())
		}
	}
}

// resourceList checks one list of container resources and returns the
// valid quantities by name.
func (s *sem) resourceList(path []string) map[string]resource.Quantity {
	m := s.m(path)
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]resource.Quantity, len(m))
	for _, name := range sortedKeys(m) {
		q, ok := s.quantityOf(m[name], nil, path, name)
		if !ok {
			continue
		}
		if !standardContainerResource(name) {
			if !strings.Contains(name, "/") {
				s.badKey(s.at(path, name), "Invalid value: %q: must be a standard resource type (cpu, memory, ephemeral-storage, hugepages-*) or fully qualified (example.com/gpu)", name)
				continue
			}
			s.msgs(s.at(path, name), name, QualifiedName(name))
		}
		if q.Sign() < 0 {
			s.bad(s.at(path, name), "Invalid value: %q: must be greater than or equal to 0", q.String())
			continue
		}
		out[name] = q
	}
	return out
}
