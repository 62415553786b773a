package manifest

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// plainStart reports whether c can start a plain scalar or key here.
func plainStart(c byte, t []byte) bool {
	switch c {
	case '&', '*', '!', '|', '>', '%', '@', '`', '{', '}', '[', ']', ',', '#', '"', '\'':
		return false
	case '?', ':', '-':
		return len(t) > 1 && t[1] != ' '
	}
	return true
}

// plainOK checks a block-context plain scalar: nothing that would make it
// something else or an error.
func plainOK(s []byte, flow bool) bool {
	if len(s) == 0 || !plainStart(s[0], s) {
		return false
	}
	if bytes.Contains(s, []byte(": ")) || bytes.HasSuffix(s, []byte(":")) || bytes.Contains(s, []byte(" #")) {
		return false
	}
	if flow && bytes.ContainsAny(s, ",[]{}") {
		return false
	}
	return utf8.Valid(s)
}

// stripComment removes a " #" comment and trailing spaces from a plain
// scalar's line.
func stripComment(b []byte) []byte {
	for i := 1; i < len(b); i++ {
		if b[i] == '#' && (b[i-1] == ' ' || b[i-1] == '\t') {
			return bytes.TrimRight(b[:i], " \t")
		}
	}
	return b
}

func onlyComment(tail []byte) bool {
	tail = bytes.TrimLeft(tail, " \t")
	return len(tail) == 0 || tail[0] == '#'
}

// resolvePlain gives a plain scalar its YAML 1.2 core schema type, the way
// yaml.v3 does. Forms whose resolution is subtle (other number bases,
// underscores, leading zeros, infinities, timestamps-like values) return
// ok=false so yaml.v3 decides.
func resolvePlain(s string) (any, bool) {
	switch s {
	case "~", "null", "Null", "NULL":
		return nil, true
	case "true", "True", "TRUE":
		return true, true
	case "false", "False", "FALSE":
		return false, true
	}
	c := s[0]
	if !(c >= '0' && c <= '9') && c != '-' && c != '+' && c != '.' {
		return s, true
	}
	digits, dots, exps, others := 0, 0, 0, 0
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case ch >= '0' && ch <= '9':
			digits++
		case ch == '.':
			dots++
		case ch == 'e' || ch == 'E':
			exps++
		case (ch == '-' || ch == '+') && (i == 0 || s[i-1] == 'e' || s[i-1] == 'E'):
		default:
			others++
		}
	}
	if others > 0 {
		// "1.30.2", "10Gi", "2020-01-01", "500m", "1h": strings, unless
		// they might be something yaml.v3 knows (hex, octal, binary, .inf).
		body := strings.ToLower(strings.TrimLeft(s, "+-"))
		if body == ".inf" || body == ".nan" ||
			strings.HasPrefix(body, "0x") || strings.HasPrefix(body, "0o") || strings.HasPrefix(body, "0b") ||
			strings.Contains(s, "_") || strings.Contains(s, ":") || looksLikeTimestamp(s) {
			return nil, false
		}
		return s, true
	}
	body := strings.TrimLeft(s, "+-")
	if digits == 0 || len(body) == 0 {
		return s, true // "-", ".", "+.": strings
	}
	if dots == 0 && exps == 0 {
		if len(body) > 1 && body[0] == '0' {
			return nil, false // leading zero: let yaml.v3 decide
		}
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return i, true
		}
		return nil, false
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && dots <= 1 && exps <= 1 {
		return f, true
	}
	if dots > 1 && exps == 0 {
		return s, true // "1.2.3"
	}
	return nil, false
}

func looksLikeTimestamp(s string) bool {
	return len(s) >= 8 && s[4] == '-' && s[0] >= '0' && s[0] <= '9'
}
