package sops

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// iniDefault is the section of the keys before any [section] header.
const iniDefault = "DEFAULT"

// loadINI reads a SOPS INI file as SOPS reads one (through go-ini): each
// section a branch of its keys, comments before a section or a key kept
// with it, the metadata in a [sops] section with flattened keys.
func loadINI(data []byte) (*treeFile, error) {
	f := &treeFile{}
	lines := strings.Split(string(data), "\n")
	cur := &item{key: iniDefault, value: branch{}, line: 1}
	sections := []*item{cur}
	var comments []string
	for i := 0; i < len(lines); i++ {
		line := strings.TrimLeft(strings.TrimSuffix(lines[i], "\r"), " \t")
		if line == "" {
			continue
		}
		if line[0] == '#' || line[0] == ';' {
			comments = append(comments, line)
			continue
		}
		if line[0] == '[' {
			end := strings.LastIndexByte(line, ']')
			if end < 0 {
				return nil, &Error{Line: i + 1, Col: 1, Err: errors.New("unclosed INI section")}
			}
			cur = &item{key: line[1:end], value: branch{}, line: i + 1}
			if c := strings.TrimSpace(strings.Join(comments, "\n")); c != "" {
				cur.value = branch{{comment: true, value: stripINIComment(c), line: i + 1}}
			}
			comments = nil
			sections = append(sections, cur)
			continue
		}
		at := strings.IndexAny(line, "=:")
		if at <= 0 {
			return nil, &Error{Line: i + 1, Col: 1, Err: errors.New("not a key = value line of an INI file")}
		}
		key, rest := strings.TrimSpace(line[:at]), line[at+1:]
		val, used, err := iniValue(rest, lines[i+1:])
		if err != nil {
			return nil, &Error{Line: i + 1, Col: at + 2, Err: err}
		}
		b := cur.value.(branch)
		b = append(b, item{key: key, value: val, line: i + 1})
		if c := strings.TrimSpace(strings.Join(comments, "\n")); c != "" {
			b = append(b, item{comment: true, value: stripINIComment(c), line: i + 1})
		}
		comments = nil
		cur.value = b
		i += used
	}
	for _, s := range sections {
		if s.key == MetadataKey && f.meta == nil {
			var keys, values []string
			for _, it := range s.value.(branch) {
				if it.key == "mac" {
					f.macLine = it.line
				}
				if !it.comment {
					keys, values = append(keys, it.key), append(values, strings.ReplaceAll(it.value.(string), `\n`, "\n"))
				}
			}
			f.metaLine = s.line
			if f.meta = finishMetadata(metadataFromFlat(keys, values)); f.meta != nil {
				continue
			}
		}
		f.root = append(f.root, *s)
	}
	if f.meta == nil {
		return nil, errNotSOPS
	}
	return f, nil
}

// iniValue reads a value as go-ini does with SOPS's options: """...""" and
// `...` quotes (over lines), an inline comment cut at # or ;, one pair of
// surrounding quotes dropped. used is the number of further lines read.
func iniValue(s string, next []string) (string, int, error) {
	line := strings.TrimLeft(s, " \t")
	if line == "" {
		return "", 0, nil
	}
	q := ""
	switch {
	case len(line) > 3 && strings.HasPrefix(line, `"""`):
		q = `"""`
	case line[0] == '`':
		q = "`"
	}
	if q != "" {
		body := line[len(q):]
		if p := strings.LastIndex(body, q); p >= 0 {
			return body[:p], 0, nil
		}
		val := body + "\n"
		for i, n := range next {
			if p := strings.LastIndex(n, q); p >= 0 {
				return val + n[:p], i + 1, nil
			}
			val += n + "\n"
		}
		return "", 0, errors.New("an INI value's quote is not closed")
	}
	line = strings.TrimSpace(line)
	if i := strings.IndexAny(line, "#;"); i >= 0 {
		line = strings.TrimSpace(line[:i])
	}
	if len(line) >= 2 && (line[0] == '"' && line[len(line)-1] == '"' || line[0] == '\'' && line[len(line)-1] == '\'') {
		line = line[1 : len(line)-1]
	}
	return line, 0, nil
}

// stripINIComment drops the comment character as SOPS does.
func stripINIComment(c string) string {
	switch {
	case strings.HasPrefix(c, ";"):
		return strings.TrimLeft(c, "; ")
	case strings.HasPrefix(c, "#"):
		return strings.TrimLeft(c, "# ")
	}
	return c
}

// emitINI prints the decrypted file as sops -d does (through go-ini: keys
// aligned on " = ", a blank line between sections, comments before what
// they belong to).
func emitINI(f *treeFile) ([]byte, error) {
	var b bytes.Buffer
	var sections []item
	for _, it := range f.root {
		if !it.comment {
			sections = append(sections, it)
		}
	}
	for i, s := range sections {
		items, ok := s.value.(branch)
		if !ok {
			return nil, &Error{Line: s.line, Col: 1, Err: fmt.Errorf("INI section %s is not a mapping", s.key)}
		}
		first := 0
		if len(items) > 0 && items[0].comment {
			writeINIComment(&b, items[0].value.(string), false)
			first = 1
		}
		type kv struct{ key, val, comment string }
		var keys []kv
		for _, it := range items[first:] {
			if it.comment {
				if len(keys) > 0 {
					keys[len(keys)-1].comment, _ = it.value.(string)
				}
				continue
			}
			keys = append(keys, kv{key: it.key, val: valToString(it.value)})
		}
		if i > 0 || !strings.EqualFold(s.key, iniDefault) {
			b.WriteString("[" + s.key + "]\n")
		} else if len(keys) == 0 {
			continue
		}
		align := 0
		for _, k := range keys {
			n := len(k.key)
			if strings.Contains(k.key, `"`) || strings.ContainsAny(k.key, "=:") {
				n += 2
			} else if strings.Contains(k.key, "`") {
				n += 6
			}
			align = max(align, n)
		}
		for _, k := range keys {
			if k.comment != "" {
				writeINIComment(&b, k.comment, true)
			}
			name := k.key
			switch {
			case strings.Contains(name, `"`) || strings.ContainsAny(name, "=:"):
				name = "`" + name + "`"
			case strings.Contains(name, "`"):
				name = `"""` + name + `"""`
			}
			val := k.val
			switch {
			case strings.ContainsAny(val, "\n`"):
				val = `"""` + val + `"""`
			case strings.ContainsAny(val, "#;"):
				val = "`" + val + "`"
			case len(strings.TrimSpace(val)) != len(val):
				val = `"` + val + `"`
			}
			b.WriteString(name + strings.Repeat(" ", max(0, align-len(name))) + " = " + val + "\n")
		}
		if i < len(sections)-1 {
			b.WriteString("\n")
		}
	}
	return b.Bytes(), nil
}

// writeINIComment writes a comment's lines as go-ini does.
func writeINIComment(b *bytes.Buffer, c string, trim bool) {
	for _, l := range strings.Split(c, "\n") {
		switch {
		case l == "":
		case l[0] != '#' && l[0] != ';':
			if trim {
				l = strings.TrimSpace(l)
			}
			l = "; " + l
		default:
			l = l[:1] + " " + strings.TrimSpace(l[1:])
		}
		b.WriteString(l + "\n")
	}
}
