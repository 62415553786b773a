package manifest

import (
	"bytes"
	"strconv"
	"strings"
)

// quoted parses a one-line single- or double-quoted scalar at the start of
// b and returns the rest of the line.
func quoted(b []byte) (any, []byte, bool) {
	q := b[0]
	var sb strings.Builder
	for i := 1; i < len(b); i++ {
		c := b[i]
		switch {
		case c == q && q == '\'':
			if i+1 < len(b) && b[i+1] == '\'' {
				sb.WriteByte('\'')
				i++
				continue
			}
			return sb.String(), b[i+1:], true
		case c == q:
			return sb.String(), b[i+1:], true
		case c == '\\' && q == '"':
			if i+1 >= len(b) {
				return nil, nil, false
			}
			i++
			switch b[i] {
			case 'n':
				sb.WriteByte('\n')
			case 't':
				sb.WriteByte('\t')
			case 'r':
				sb.WriteByte('\r')
			case '"', '\\', '/':
				sb.WriteByte(b[i])
			case '0':
				sb.WriteByte(0)
			case 'u':
				if i+4 >= len(b) {
					return nil, nil, false
				}
				r, err := strconv.ParseUint(string(b[i+1:i+5]), 16, 32)
				if err != nil || (r >= 0xD800 && r <= 0xDFFF) {
					return nil, nil, false
				}
				sb.WriteRune(rune(r))
				i += 4
			default:
				return nil, nil, false
			}
		default:
			sb.WriteByte(c)
		}
	}
	return nil, nil, false // not closed on this line
}

// flowNode parses a one-line flow collection or scalar at the start of b.
func flowNode(b []byte, depth int) (any, []byte, bool) {
	if depth > maxFastDepth {
		return nil, nil, false
	}
	b = trimLeftSpace(b)
	if len(b) == 0 {
		return nil, nil, false
	}
	switch b[0] {
	case '{':
		m := map[string]any{}
		b = trimLeftSpace(b[1:])
		if len(b) > 0 && b[0] == '}' {
			return m, b[1:], true
		}
		for {
			k, rest, ok := flowKey(b)
			if !ok {
				return nil, nil, false
			}
			if _, dup := m[k]; dup || k == "<<" {
				return nil, nil, false
			}
			var v any
			rest = trimLeftSpace(rest)
			if len(rest) > 0 && (rest[0] == ',' || rest[0] == '}') {
				v = nil
			} else if v, rest, ok = flowNode(rest, depth+1); !ok {
				return nil, nil, false
			}
			m[k] = v
			var done bool
			if b, done, ok = flowNext(rest, '}'); !ok || done {
				return m, b, ok
			}
		}
	case '[':
		s := []any{}
		b = trimLeftSpace(b[1:])
		if len(b) > 0 && b[0] == ']' {
			return s, b[1:], true
		}
		for {
			v, rest, ok := flowNode(b, depth+1)
			if !ok {
				return nil, nil, false
			}
			if _, isKey, _ := flowKey(b); isKey != nil {
				return nil, nil, false // "[a: b]" single-pair mappings
			}
			s = append(s, v)
			var done bool
			if b, done, ok = flowNext(rest, ']'); !ok || done {
				return s, b, ok
			}
		}
	case '"', '\'':
		return quoted(b)
	}
	end := 0
	for end < len(b) && !strings.ContainsRune(",[]{}#", rune(b[end])) {
		if b[end] == ':' && (end+1 == len(b) || b[end+1] == ' ' || b[end+1] == ',') {
			return nil, nil, false
		}
		end++
	}
	if end < len(b) && b[end] == '#' {
		return nil, nil, false
	}
	s := bytes.TrimRight(b[:end], " \t")
	if !plainOK(s, true) {
		return nil, nil, false
	}
	v, ok := resolvePlain(string(s))
	return v, b[end:], ok
}

// flowNext reads what follows an entry of a flow collection: a comma (and
// maybe the closing bracket after it, YAML allows a trailing comma) or the
// closing bracket. It returns the input after it and whether the
// collection ended.
func flowNext(rest []byte, closer byte) (next []byte, done, ok bool) {
	rest = trimLeftSpace(rest)
	switch {
	case len(rest) == 0:
		return nil, false, false
	case rest[0] == closer:
		return rest[1:], true, true
	case rest[0] != ',':
		return nil, false, false
	}
	b := trimLeftSpace(rest[1:])
	if len(b) > 0 && b[0] == closer {
		return b[1:], true, true
	}
	return b, false, true
}

// flowKey reads "key:" inside a flow mapping.
func flowKey(b []byte) (string, []byte, bool) {
	if len(b) == 0 {
		return "", nil, false
	}
	if b[0] == '"' || b[0] == '\'' {
		v, tail, ok := quoted(b)
		if !ok || len(b)-len(tail) > maxKeyBytes {
			return "", nil, false
		}
		tail = trimLeftSpace(tail)
		if len(tail) == 0 || tail[0] != ':' {
			return "", nil, false
		}
		s, _ := v.(string)
		return s, tail[1:], true
	}
	if !plainStart(b[0], b) || b[0] == '-' || b[0] == '?' || b[0] == ':' {
		return "", nil, false
	}
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case ':':
			if i+1 < len(b) && b[i+1] == ' ' && i <= maxKeyBytes {
				k := bytes.TrimRight(b[:i], " \t")
				if len(k) == 0 {
					return "", nil, false
				}
				return string(k), b[i+1:], true
			}
			return "", nil, false
		case ',', '[', ']', '{', '}', '#':
			return "", nil, false
		}
	}
	return "", nil, false
}
