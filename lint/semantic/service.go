package semantic

import (
	"fmt"
)

// checkService checks a Service as ValidateService does: type and
// policies, ports (numbers, names, protocols, node ports by type,
// duplicates), the selector's labels.
func checkService(s *sem) {
	spec := p("spec")
	typ, _ := s.str(s.at(spec, "type"))
	if typ == "" {
		typ = "ClusterIP"
	}
	s.enum(s.at(spec, "type"), "ClusterIP", "NodePort", "LoadBalancer", "ExternalName")
	s.enum(s.at(spec, "sessionAffinity"), "None", "ClientIP")
	s.enum(s.at(spec, "externalTrafficPolicy"), "Cluster", "Local")
	s.enum(s.at(spec, "internalTrafficPolicy"), "Cluster", "Local")
	s.enum(s.at(spec, "ipFamilyPolicy"), "SingleStack", "PreferDualStack", "RequireDualStack")
	s.labelMap(s.at(spec, "selector"))
	external := typ == "NodePort" || typ == "LoadBalancer" || (typ == "ClusterIP" && len(s.list(s.at(spec, "externalIPs"))) > 0)
	if v, ok := s.str(s.at(spec, "externalTrafficPolicy")); ok && v != "" && !external {
		s.bad(s.at(spec, "externalTrafficPolicy"), "Invalid value: %q: may only be set for externally-accessible services (type NodePort or LoadBalancer, or with externalIPs)", v)
	}
	headless, _ := s.str(s.at(spec, "clusterIP"))
	ports := s.list(s.at(spec, "ports"))
	if len(ports) == 0 && headless != "None" && typ != "ExternalName" && (s.m(spec) != nil || !s.has(spec)) {
		s.required(s.at(spec, "ports"), "a Service needs at least one port (or clusterIP: None, or type ExternalName)")
	}
	names := map[string]bool{}
	seen := map[string]bool{}
	s.items(s.at(spec, "ports"), func(pp []string, m map[string]any) {
		name, _ := m["name"].(string)
		switch {
		case name == "" && len(ports) > 1:
			s.required(s.at(pp, "name"), "name every port when a Service has more than one")
		case name != "" && len(DNS1123Label(name)) > 0:
			s.msgs(s.at(pp, "name"), name, DNS1123Label(name))
		case name != "" && names[name]:
			s.bad(s.at(pp, "name"), "Duplicate value: %q: port names must be unique", name)
		}
		names[name] = true
		if n, ok := asInt(m["port"]); ok {
			s.portNum(s.at(pp, "port"), n)
		}
		s.enum(s.at(pp, "protocol"), "SCTP", "TCP", "UDP")
		if n, ok := asInt(m["targetPort"]); ok && n != 0 {
			s.portNum(s.at(pp, "targetPort"), n)
		} else if tp, isString := m["targetPort"].(string); isString && tp != "" { // "" defaults to port
			s.portNumOrName(s.at(pp, "targetPort"))
		}
		if n, ok := asInt(m["nodePort"]); ok && n != 0 {
			if typ == "ClusterIP" {
				s.bad(s.at(pp, "nodePort"), "Forbidden: may not be used when `type` is 'ClusterIP'; use type NodePort or remove it")
			} else if n < 1 || n > 65535 {
				// A dry-run does not allocate node ports, so plan passes;
				// the create fails.
				pp := s.at(pp, "nodePort")
				s.out = append(s.out, Violation{Path: pp, Warning: true, Message: FieldPath(pp) + ": " +
					fmt.Sprintf("Invalid value: %d: not in the node port range (30000-32767 by default); a dry-run accepts it but the create fails", n)})
			}
		}
		proto, _ := m["protocol"].(string)
		if proto == "" {
			proto = "TCP"
		}
		key := fmt.Sprint(proto, "/", m["port"])
		if seen[key] {
			s.bad(pp, "Duplicate value: port %v/%s is already defined", m["port"], proto)
		}
		seen[key] = true
	})
}
