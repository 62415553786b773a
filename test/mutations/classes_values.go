package mutations

import (
	"strings"
)

// badQuantities are strings resource.ParseQuantity refuses, negative
// amounts, and valid spellings a tool must not refuse.
var badQuantities = []string{"100mm", "1.5.5Gi", "abc", "10 Gi", "1Kb", "0.5.", "1e", "", "Mi", "-1",
	"1.5Gib", "+-1", " 2Gi ", "0x1F", "1e3m", "-0.5",
	"1.5", "1e3", "0.1Ki"} // the last three are valid: a tool must accept them

// quantityField reports whether p holds a resource quantity.
func quantityField(p path) bool {
	switch p.last() {
	case "sizeLimit", "averageValue", "storage":
		return true
	}
	if len(p) >= 2 {
		parent, _ := p[len(p)-2].(string)
		return (parent == "requests" || parent == "limits") && p.has("resources")
	}
	return false
}

// quantities puts invalid quantities where quantities go.
func quantities(g *gen) {
	for _, n := range g.nodes {
		if _, ok := n.v.(string); !ok || !quantityField(n.p) {
			continue
		}
		for _, q := range badQuantities {
			g.add(InvalidQuantity, n.p, "set to "+quote(q), set(g.base, n.p, q))
		}
	}
}

func quote(s string) string { return "\"" + s + "\"" }

// enumFields are the fields whose values come from a fixed set.
var enumFields = map[string]bool{
	"imagePullPolicy": true, "restartPolicy": true, "dnsPolicy": true, "protocol": true,
	"terminationMessagePolicy": true, "sessionAffinity": true, "externalTrafficPolicy": true,
	"internalTrafficPolicy": true, "ipFamilyPolicy": true, "concurrencyPolicy": true,
	"podManagementPolicy": true, "pathType": true, "volumeMode": true, "operator": true,
	"effect": true, "scheme": true, "selectPolicy": true, "unhealthyPodEvictionPolicy": true,
	"accessModes": true, "policyTypes": true, "type": true, "whenUnsatisfiable": true,
}

// enumSite reports whether p holds an enum value: an enum field, or an
// item of an enum list. A Secret's type is free-form.
func enumSite(kind string, p path) bool {
	k := p.last()
	if k == "type" && kind == "Secret" {
		return false
	}
	return enumFields[k]
}

// enums puts a value outside the set, and the right value in the wrong
// case, where enum values go.
func enums(g *gen) {
	for _, n := range g.nodes {
		s, ok := n.v.(string)
		if !ok || !enumSite(g.kind, n.p) {
			continue
		}
		alts := []string{"Sometimes"}
		for _, a := range []string{strings.ToLower(s), strings.ToUpper(s), s + " "} {
			if a != s {
				alts = append(alts, a)
			}
		}
		for _, a := range alts {
			g.add(InvalidEnum, n.p, quote(s)+" -> "+quote(a), set(g.base, n.p, a))
		}
	}
}

// portFields hold port numbers.
var portFields = map[string]bool{"containerPort": true, "hostPort": true, "port": true, "targetPort": true,
	"nodePort": true, "endPort": true, "number": true}

// badPorts are out of 1-65535, with the two ends of the range.
var badPorts = []int64{0, -1, 65536, 100000, 65535, 1} // 65535 and 1 are valid

// ports puts numbers out of range where ports go, named ports included.
func ports(g *gen) {
	for _, n := range g.nodes {
		if !portFields[n.p.last()] {
			continue
		}
		switch n.v.(type) {
		case int64, float64, string:
		default:
			continue
		}
		for _, b := range badPorts {
			g.add(PortRange, n.p, "set to "+itoa(b), set(g.base, n.p, b))
		}
	}
}

func itoa(i int64) string {
	if i < 0 {
		return "-" + itoa(-i)
	}
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
