package semantic

import (
	"net/netip"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
)

// checkIngress checks rules (hosts, paths and their types, backends),
// TLS hosts, the default backend and the class name.
func checkIngress(s *sem) {
	spec := p("spec")
	if name, ok := s.str(s.at(spec, "ingressClassName")); ok && name != "" {
		s.msgs(s.at(spec, "ingressClassName"), name, DNS1123Subdomain(name))
	}
	s.ingressBackend(s.at(spec, "defaultBackend"))
	if !s.has(s.at(spec, "defaultBackend")) && !s.has(s.at(spec, "rules")) {
		s.required(s.at(spec, "rules"), "either `defaultBackend` or `rules` must be specified")
	}
	s.items(s.at(spec, "tls"), func(t []string, m map[string]any) {
		for i, h := range listOf(m["hosts"]) {
			if hs, ok := h.(string); ok {
				s.host(s.at(t, "hosts", idx(i)), hs)
			}
		}
	})
	s.items(s.at(spec, "rules"), func(r []string, m map[string]any) {
		if h, ok := m["host"].(string); ok && h != "" {
			s.host(s.at(r, "host"), h)
		}
		s.items(s.at(r, "http", "paths"), func(pp []string, pm map[string]any) {
			pt, _ := pm["pathType"].(string)
			path, _ := pm["path"].(string)
			switch pt {
			case "":
				if s.has(s.at(pp, "pathType")) { // missing, the schema reports it
					s.required(s.at(pp, "pathType"), "pathType must be specified (Prefix, Exact or ImplementationSpecific)")
				}
			case "Exact", "Prefix":
				if !strings.HasPrefix(path, "/") {
					s.bad(s.at(pp, "path"), "Invalid value: %q: must be an absolute path", path)
				}
			case "ImplementationSpecific":
				if path != "" && !strings.HasPrefix(path, "/") {
					s.bad(s.at(pp, "path"), "Invalid value: %q: must be an absolute path", path)
				}
			default:
				s.bad(s.at(pp, "pathType"), "Unsupported value: %q: supported values: \"Exact\", \"ImplementationSpecific\", \"Prefix\"", pt)
			}
			if !s.has(s.at(pp, "backend")) {
				s.required(s.at(pp, "backend"), "the service the path routes to")
			}
			s.ingressBackend(s.at(pp, "backend"))
		})
	})
}

// host checks an Ingress host: a DNS subdomain, "*." allowed first, not an IP.
func (s *sem) host(path []string, h string) {
	if strings.HasPrefix(h, "*.") {
		s.msgs(path, h, validation.IsWildcardDNS1123Subdomain(h))
		return
	}
	if _, err := netip.ParseAddr(h); err == nil {
		s.bad(path, "Invalid value: %q: must be a DNS name, not an IP address", h)
		return
	}
	s.msgs(path, h, DNS1123Subdomain(h))
}

// ingressBackend checks a backend: exactly one of service and resource; a
// service's name and exactly one of port number and name.
func (s *sem) ingressBackend(path []string) {
	m := s.m(path)
	if m == nil {
		return
	}
	svc, isSvc := m["service"].(map[string]any)
	if (m["service"] != nil) == (m["resource"] != nil) {
		s.bad(path, "Invalid value: exactly one of service and resource must be specified")
	}
	if !isSvc {
		return
	}
	sp := s.at(path, "service")
	name, _ := svc["name"].(string)
	if name == "" {
		s.required(s.at(sp, "name"), "the Service to route to")
	} else {
		s.msgs(s.at(sp, "name"), name, validation.IsDNS1035Label(name))
	}
	port, _ := svc["port"].(map[string]any)
	_, hasNum := port["number"]
	pname, _ := port["name"].(string)
	switch {
	case hasNum && pname != "":
		s.bad(s.at(sp, "port"), "Invalid value: cannot set both port name & port number")
	case hasNum:
		if n, ok := asInt(port["number"]); ok {
			s.portNum(s.at(sp, "port", "number"), n)
		}
	case pname != "":
		s.msgs(s.at(sp, "port", "name"), pname, validation.IsValidPortName(pname))
	default:
		s.required(s.at(sp, "port"), "port name or number is required")
	}
}

// checkNetworkPolicy checks selectors, peers, ports and policy types.
func checkNetworkPolicy(s *sem) {
	spec := p("spec")
	s.labelSelector(s.at(spec, "podSelector"))
	for i, t := range s.list(s.at(spec, "policyTypes")) {
		if ts, ok := t.(string); ok && ts != "Ingress" && ts != "Egress" {
			s.bad(s.at(spec, "policyTypes", idx(i)), "Unsupported value: %q: supported values: \"Ingress\", \"Egress\"", ts)
		}
	}
	for _, dir := range [][2]string{{"ingress", "from"}, {"egress", "to"}} {
		s.items(s.at(spec, dir[0]), func(r []string, _ map[string]any) {
			s.items(s.at(r, "ports"), func(pp []string, m map[string]any) {
				s.enum(s.at(pp, "protocol"), "SCTP", "TCP", "UDP")
				port, isNum := asInt(m["port"])
				if isNum {
					s.portNum(s.at(pp, "port"), port)
				} else if _, ok := m["port"].(string); ok {
					s.portNumOrName(s.at(pp, "port"))
				}
				if end, ok := asInt(m["endPort"]); ok {
					switch {
					case !isNum:
						s.bad(s.at(pp, "endPort"), "Required value: may not be specified when `port` is not a number; set a numeric port")
					case end < port:
						s.bad(s.at(pp, "endPort"), "Invalid value: %d: must be greater than or equal to `port`", end)
					default:
						s.portNum(s.at(pp, "endPort"), end)
					}
				}
			})
			s.items(s.at(r, dir[1]), func(peer []string, m map[string]any) {
				n := 0
				for _, k := range []string{"podSelector", "namespaceSelector", "ipBlock"} {
					if m[k] != nil {
						n++
					}
				}
				if n == 0 {
					s.bad(peer, "Required value: must specify a peer (podSelector, namespaceSelector or ipBlock)")
				}
				if m["ipBlock"] != nil && n > 1 {
					s.bad(peer, "Forbidden: may not specify both ipBlock and another peer")
				}
				s.labelSelector(s.at(peer, "podSelector"))
				s.labelSelector(s.at(peer, "namespaceSelector"))
				s.ipBlock(s.at(peer, "ipBlock"))
			})
		})
	}
}

// ipBlock checks cidr and that each except is inside it.
func (s *sem) ipBlock(path []string) {
	if s.m(path) == nil {
		return
	}
	c, _ := s.str(s.at(path, "cidr"))
	if c == "" {
		s.required(s.at(path, "cidr"), "the CIDR to allow, such as 10.0.0.0/8")
		return
	}
	block, err := netip.ParsePrefix(c)
	if err != nil {
		s.bad(s.at(path, "cidr"), "Invalid value: %q: must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)", c)
		return
	}
	for i, e := range s.list(s.at(path, "except")) {
		es, _ := e.(string)
		ex, err := netip.ParsePrefix(es)
		switch {
		case err != nil:
			s.bad(s.at(path, "except", idx(i)), "Invalid value: %q: must be a valid CIDR value", es)
		case !block.Contains(ex.Addr()) || ex.Bits() <= block.Bits():
			s.bad(s.at(path, "except", idx(i)), "Invalid value: %q: must be a strict subset of `cidr`", es)
		}
	}
}
