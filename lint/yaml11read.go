package lint

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// yaml11Reading is what a YAML 1.1 reader makes of a plain scalar that is
// not a string to it: kind is "boolean" or "number" and value how it prints
// ("true", "493"); kind is "" for a string. kubectl, Helm and Argo CD read
// manifests with go-yaml v2's YAML 1.1 rules (through sigs.k8s.io/yaml);
// kubeplan, like kustomize, with YAML 1.2's.
func yaml11Reading(s string) (kind, value string) {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "true", "True", "TRUE":
		return "boolean", "true"
	case "n", "N", "no", "No", "NO", "off", "Off", "OFF", "false", "False", "FALSE":
		return "boolean", "false"
	}
	if s == "" || !strings.ContainsAny(s[:1], "+-.0123456789") {
		return "", ""
	}
	if v, ok := yaml11Base60(s); ok {
		return "number", v
	}
	plain := strings.ReplaceAll(s, "_", "")
	sign, body := "", plain
	if body[0] == '-' || body[0] == '+' {
		sign, body = body[:1], body[1:]
	}
	switch {
	case len(body) > 1 && body[0] == '0' && strings.Trim(body, "01234567") == "":
		if i, err := strconv.ParseInt(sign+body[1:], 8, 64); err == nil {
			return "number", strconv.FormatInt(i, 10) // octal, as 0755
		}
	case strings.HasPrefix(body, "0x") || strings.HasPrefix(body, "0b") || strings.HasPrefix(body, "0o"):
		if i, err := strconv.ParseInt(sign+body, 0, 64); err == nil {
			return "number", strconv.FormatInt(i, 10)
		}
	}
	if i, err := strconv.ParseInt(plain, 10, 64); err == nil {
		return "number", strconv.FormatInt(i, 10)
	}
	switch strings.ToLower(body) {
	case ".inf":
		return "number", sign + "Inf"
	case ".nan":
		if sign == "" {
			return "number", "NaN"
		}
	}
	if yaml11Float.MatchString(plain) {
		if f, err := strconv.ParseFloat(plain, 64); err == nil && !math.IsInf(f, 0) {
			return "number", strconv.FormatFloat(f, 'g', -1, 64)
		}
	}
	return "", ""
}

// yaml11Float is the float syntax go-yaml v2 accepts (1e3 as well as 1.5).
var yaml11Float = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

// yaml11Sexagesimal is YAML 1.1's base 60: 1:20 is 80, 1:20.5 is 80.5.
var yaml11Sexagesimal = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$`)

func yaml11Base60(s string) (string, bool) {
	if !strings.Contains(s, ":") || !yaml11Sexagesimal.MatchString(s) {
		return "", false
	}
	neg := strings.HasPrefix(s, "-")
	body := strings.ReplaceAll(strings.TrimLeft(s, "+-"), "_", "")
	frac := ""
	if i := strings.IndexByte(body, '.'); i >= 0 {
		body, frac = body[:i], body[i:]
	}
	v := 0.0
	for _, part := range strings.Split(body, ":") {
		n, err := strconv.ParseFloat(part, 64)
		if err != nil {
			return "", false
		}
		v = v*60 + n
	}
	if frac != "" && frac != "." {
		f, _ := strconv.ParseFloat("0"+frac, 64)
		v += f
	}
	if neg {
		v = -v
	}
	return strconv.FormatFloat(v, 'g', -1, 64), true
}

// yaml12String reports plain scalars YAML 1.2 (and so kubeplan) reads as
// strings but YAML 1.1 does not: booleans other than true and false, and
// base-60 numbers. Only these can be unquoted strings in an object's
// content; every other YAML 1.1 boolean or number is one in YAML 1.2 too.
func yaml12String(s string) bool {
	if len(s) > 3 && (s[0] < '0' || s[0] > '9') && s[0] != '-' && s[0] != '+' || len(s) > 3 && !strings.Contains(s, ":") {
		return false // most strings: a long word, or no base-60 number
	}
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "on", "On", "ON",
		"n", "N", "no", "No", "NO", "off", "Off", "OFF":
		return true
	}
	_, ok := yaml11Base60(s)
	return ok
}

// yaml11Surprising reports YAML 1.1 readings worth a rule of their own where a
// string is wanted: booleans, and numbers not written as plain decimals
// (0755, 1e3, 0x1F, 1:20). "replicas: 3" and "value: 8080" are numbers to
// every reader; the schema check reports those.
func yaml11Surprising(text, kind string) bool {
	if kind == "boolean" {
		return true
	}
	return kind == "number" && !yaml11PlainDecimal.MatchString(text)
}

var yaml11PlainDecimal = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?$`)
