package sops

import (
	"crypto/sha512"
	"fmt"
	"strconv"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v3"
)

// item is one entry of a branch of a file that is not YAML (dotenv, JSON,
// INI, binary), as SOPS models every format: a key and its value, or a
// comment (comment set, text in value).
type item struct {
	key     string
	comment bool
	value   any // string, int, float64, bool, nil, branch, []any
	line    int
}

// branch is a mapping whose order is the file's.
type branch []item

// comment is a comment inside a JSON list (never written; kept for the
// order SOPS walks).
type comment struct{ text string }

// treeFile is a file read into SOPS's model: its values, its metadata
// (as the "sops" YAML mapping the YAML decrypter reads) and the line of
// the metadata for errors.
type treeFile struct {
	root     branch
	meta     *Metadata
	metaLine int
	macLine  int // the line of the MAC, when known
}

// decryptTree decrypts every value of f in place as SOPS does, records
// each for Scrub, and verifies the MAC.
func decryptTree(f *treeFile, keys *Keys) error {
	m := f.meta
	if m.Err != nil {
		return m.Err
	}
	key, err := dataKey(m, keys)
	if err != nil {
		return &Error{Line: f.metaLine, Col: 1, Err: err}
	}
	d := &decrypter{key: key, meta: m, mac: sha512.New()}
	if m.MACOnlyEncrypted {
		d.mac.Write(macOnlyEncryptedInit)
	}
	if err := d.branch(f.root, nil); err != nil {
		return err
	}
	if err := d.verify(); err != nil {
		if e, ok := err.(*Error); ok && m.Node.Line == 0 {
			e.Line, e.Col = f.metaLine, 1
			if f.macLine > 0 {
				e.Line = f.macLine
			}
		}
		return err
	}
	return nil
}

// branch decrypts the values of b; path is the keys on the way to it.
func (d *decrypter) branch(b branch, path []string) error {
	for i := range b {
		it := &b[i]
		if it.comment {
			s, _ := it.value.(string)
			if d.meta.shouldBeEncrypted(path) && IsEncryptedValue(s) {
				// SOPS keeps a comment that does not decrypt as it is.
				if plain, typ, err := decryptValue(s, d.key, strings.Join(path, ":")+":"); err == nil && typ == "comment" {
					it.value = string(plain)
				}
			}
			continue
		}
		v, err := d.value(it.value, append(path[:len(path):len(path)], it.key), it.line)
		if err != nil {
			return err
		}
		it.value = v
	}
	return nil
}

// value decrypts one value at path and adds it to the MAC.
func (d *decrypter) value(v any, path []string, line int) (any, error) {
	switch v := v.(type) {
	case branch:
		return v, d.branch(v, path)
	case []any:
		for i, e := range v {
			if _, ok := e.(comment); ok {
				continue
			}
			out, err := d.value(e, path, line)
			if err != nil {
				return nil, err
			}
			v[i] = out
		}
		return v, nil
	case nil:
		return nil, nil
	}
	encrypted := d.meta.shouldBeEncrypted(path)
	if s, ok := v.(string); ok && encrypted && s == "" {
		// SOPS leaves an empty value as it is.
	} else if ok && encrypted && IsEncryptedValue(s) {
		plain, typ, err := decryptValue(s, d.key, strings.Join(path, ":")+":")
		if err != nil {
			return nil, &Error{Line: line, Col: 1, Err: fmt.Errorf("%s: %w", strings.Join(path, "."), err)}
		}
		out, err := typedValue(plain, typ)
		if err != nil {
			return nil, &Error{Line: line, Col: 1, Err: fmt.Errorf("%s: %w", strings.Join(path, "."), err)}
		}
		if typ == "str" || typ == "bytes" || typ == "int" || typ == "float" {
			reveal(string(plain))
		}
		v = out
	} else if encrypted {
		return nil, &Error{Line: line, Col: 1, Err: fmt.Errorf("%s is in the clear where SOPS encrypts: the file was changed after it was encrypted (edit it with sops)", strings.Join(path, "."))}
	}
	if !d.meta.MACOnlyEncrypted || encrypted {
		b, err := valueBytes(v)
		if err != nil {
			return nil, &Error{Line: line, Col: 1, Err: err}
		}
		d.mac.Write(b)
	}
	return v, nil
}

// typedValue is a decrypted value of SOPS's type typ.
func typedValue(plain []byte, typ string) (any, error) {
	s := string(plain)
	switch typ {
	case "str", "bytes":
		return s, nil
	case "int":
		v, err := strconv.Atoi(s)
		if err != nil {
			return nil, fmt.Errorf("decrypted int %w", err)
		}
		return v, nil
	case "float":
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("decrypted float %w", err)
		}
		return v, nil
	case "bool":
		v, err := strconv.ParseBool(s)
		if err != nil {
			return nil, fmt.Errorf("decrypted bool %w", err)
		}
		return v, nil
	case "time":
		var t time.Time
		if err := t.UnmarshalText(plain); err != nil {
			return nil, fmt.Errorf("decrypted time %w", err)
		}
		return t, nil
	}
	return nil, fmt.Errorf("unknown sops value type %q", typ)
}

// valueBytes is what the MAC covers for a value, as SOPS prints it.
func valueBytes(v any) ([]byte, error) {
	switch v := v.(type) {
	case string:
		return []byte(v), nil
	case int:
		return []byte(strconv.Itoa(v)), nil
	case float64:
		return []byte(strconv.FormatFloat(v, 'f', -1, 64)), nil
	case bool:
		return boolBytes(v), nil
	case time.Time:
		return v.MarshalText()
	}
	return nil, fmt.Errorf("a value of type %T cannot be in a sops file", v)
}

// metadataFromFlat builds the "sops" mapping from the flattened keys the
// dotenv ("age__list_0__map_recipient") and INI formats store it as.
func metadataFromFlat(keys, values []string) *yaml.Node {
	root := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for i, k := range keys {
		placeFlat(root, k, values[i])
	}
	return root
}

const (
	flatMap  = "__map_"
	flatList = "__list_"
)

// placeFlat puts value at the flattened path k under the mapping n.
func placeFlat(n *yaml.Node, k, value string) {
	if strings.Count(k, "__") > 16 {
		return // no SOPS metadata is this deep; a hostile key must not be
	}
	head, rest := k, ""
	if i := strings.Index(k, "__"); i > 0 && (strings.HasPrefix(k[i:], flatMap) || strings.HasPrefix(k[i:], flatList)) {
		head, rest = k[:i], k[i:]
	}
	child := mapChild(n, head)
	for rest != "" {
		var tok string
		isList := strings.HasPrefix(rest, flatList)
		if isList {
			rest = rest[len(flatList):]
		} else {
			rest = rest[len(flatMap):]
		}
		tok, rest = cutFlat(rest)
		if isList {
			idx, err := strconv.Atoi(tok)
			if err != nil || idx < 0 || idx > 1000 {
				return
			}
			if *child == nil {
				*child = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
			}
			seq := *child
			for len(seq.Content) <= idx {
				seq.Content = append(seq.Content, &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"})
			}
			if rest == "" {
				seq.Content[idx] = scalarNode(value)
				return
			}
			next := seq.Content[idx]
			if !strings.HasPrefix(rest, flatMap) {
				return
			}
			rest = rest[len(flatMap):]
			tok, rest = cutFlat(rest)
			child = mapChild(next, tok)
			continue
		}
		if *child == nil {
			*child = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		}
		child = mapChild(*child, tok)
	}
	*child = scalarNode(value)
}

// cutFlat splits the first token of a flattened path from the rest.
func cutFlat(s string) (string, string) {
	for i := 0; i < len(s); i++ {
		if strings.HasPrefix(s[i:], flatMap) || strings.HasPrefix(s[i:], flatList) {
			return s[:i], s[i:]
		}
	}
	return s, ""
}

// mapChild returns a pointer to the value of key in mapping n, adding
// the key (with a nil value) when absent.
func mapChild(n *yaml.Node, key string) **yaml.Node {
	if n.Kind != yaml.MappingNode {
		var dummy *yaml.Node
		return &dummy
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return &n.Content[i+1]
		}
	}
	n.Content = append(n.Content, scalarNode(key), nil)
	return &n.Content[len(n.Content)-1]
}

func scalarNode(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

// finishMetadata replaces nil values left by placeFlat and reads the
// metadata; nil when the mapping holds no mac nor version.
func finishMetadata(n *yaml.Node) *Metadata {
	fillNil(n)
	return Find([]*yaml.Node{{Kind: yaml.MappingNode, Content: []*yaml.Node{scalarNode(MetadataKey), n}}})
}

func fillNil(n *yaml.Node) {
	for i, c := range n.Content {
		if c == nil {
			n.Content[i] = scalarNode("")
			continue
		}
		fillNil(c)
	}
}

// nodeOf converts a JSON value of the model to a YAML node (the metadata
// of a JSON file).
func nodeOf(v any) *yaml.Node {
	switch v := v.(type) {
	case branch:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for _, it := range v {
			if !it.comment {
				n.Content = append(n.Content, scalarNode(it.key), nodeOf(it.value))
			}
		}
		return n
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, e := range v {
			if _, ok := e.(comment); !ok {
				n.Content = append(n.Content, nodeOf(e))
			}
		}
		return n
	case nil:
		return scalarNode("")
	case string:
		return scalarNode(v)
	}
	return scalarNode(valToString(v))
}

// valToString prints a value the way SOPS's flat formats do.
func valToString(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case float64:
		s := strconv.FormatFloat(v, 'G', -1, 64)
		if !strings.ContainsAny(s, ".E") {
			s = strconv.FormatFloat(v, 'f', 1, 64)
		}
		return s
	case bool:
		return strconv.FormatBool(v)
	case time.Time:
		return v.Format(time.RFC3339)
	case nil:
		return "<nil>"
	}
	return fmt.Sprintf("%v", v)
}
