package sops

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// errNotSOPS is returned by the loaders for a file without SOPS metadata.
var errNotSOPS = errors.New("not a SOPS-encrypted file")

// jsonReader reads a JSON document in order, knowing the line of each key.
type jsonReader struct {
	dec   *json.Decoder
	data  []byte
	depth int
}

// maxJSONDepth bounds the nesting of a JSON file read as SOPS's: a file
// of a repository must not exhaust the stack.
const maxJSONDepth = 100

func (r *jsonReader) line() int {
	off := int(r.dec.InputOffset())
	if off > len(r.data) {
		off = len(r.data)
	}
	return bytes.Count(r.data[:off], []byte("\n")) + 1
}

// loadJSON reads a SOPS JSON file (the binary format is one too, with a
// single "data" key): an object, its "sops" key the metadata.
func loadJSON(data []byte) (*treeFile, error) {
	r := &jsonReader{dec: json.NewDecoder(bytes.NewReader(data)), data: data}
	r.dec.UseNumber()
	tok, err := r.dec.Token()
	if err != nil {
		return nil, &Error{Line: r.line(), Col: 1, Err: fmt.Errorf("not JSON: %w", err)}
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errNotSOPS
	}
	root, err := r.object()
	if err != nil {
		return nil, err
	}
	if _, err := r.dec.Token(); err == nil {
		return nil, &Error{Line: r.line(), Col: 1, Err: errors.New("more than one JSON value")}
	}
	f := &treeFile{}
	for _, it := range root {
		if it.key == MetadataKey {
			if _, ok := it.value.(branch); ok && f.meta == nil {
				f.metaLine = it.line
				for _, m := range it.value.(branch) {
					if m.key == "mac" {
						f.macLine = m.line
					}
				}
				f.meta = finishMetadata(nodeOf(it.value))
				continue
			}
		}
		f.root = append(f.root, it)
	}
	if f.meta == nil {
		return nil, errNotSOPS
	}
	return f, nil
}

// object reads the members of an object whose "{" was read.
func (r *jsonReader) object() (branch, error) {
	var b branch
	for r.dec.More() {
		line := r.line()
		tok, err := r.dec.Token()
		if err != nil {
			return nil, &Error{Line: r.line(), Col: 1, Err: err}
		}
		k, _ := tok.(string)
		v, err := r.value()
		if err != nil {
			return nil, err
		}
		b = append(b, item{key: k, value: v, line: line})
	}
	if _, err := r.dec.Token(); err != nil {
		return nil, &Error{Line: r.line(), Col: 1, Err: err}
	}
	return b, nil
}

// value reads one value.
func (r *jsonReader) value() (any, error) {
	tok, err := r.dec.Token()
	if err != nil {
		return nil, &Error{Line: r.line(), Col: 1, Err: err}
	}
	switch t := tok.(type) {
	case json.Delim:
		if r.depth++; r.depth > maxJSONDepth {
			return nil, &Error{Line: r.line(), Col: 1, Err: fmt.Errorf("JSON nested deeper than %d levels", maxJSONDepth)}
		}
		defer func() { r.depth-- }()
		switch t {
		case '{':
			return r.object()
		case '[':
			var list []any
			for r.dec.More() {
				v, err := r.value()
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			if _, err := r.dec.Token(); err != nil {
				return nil, &Error{Line: r.line(), Col: 1, Err: err}
			}
			if list == nil {
				list = []any{}
			}
			return list, nil
		}
	case json.Number:
		if i, err := strconv.ParseInt(string(t), 10, 64); err == nil && i >= math.MinInt && i <= math.MaxInt {
			return int(i), nil
		}
		f, err := t.Float64()
		if err != nil {
			return nil, &Error{Line: r.line(), Col: 1, Err: err}
		}
		return f, nil
	case string, bool, nil:
		return t, nil
	}
	return nil, &Error{Line: r.line(), Col: 1, Err: fmt.Errorf("unexpected JSON token %v", tok)}
}

// emitJSON prints the decrypted file as sops -d does: the members in
// order, each value as encoding/json writes it, indented with tabs.
func emitJSON(f *treeFile) ([]byte, error) {
	raw, err := jsonValue(f.root)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "\t"); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

func jsonValue(v any) ([]byte, error) {
	switch v := v.(type) {
	case branch:
		var b bytes.Buffer
		b.WriteByte('{')
		first := true
		for _, it := range v {
			if it.comment {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			k, _ := json.Marshal(it.key)
			val, err := jsonValue(it.value)
			if err != nil {
				return nil, err
			}
			b.Write(k)
			b.WriteString(": ")
			b.Write(val)
		}
		b.WriteByte('}')
		return b.Bytes(), nil
	case []any:
		var b bytes.Buffer
		b.WriteByte('[')
		first := true
		for _, e := range v {
			if _, ok := e.(comment); ok {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			val, err := jsonValue(e)
			if err != nil {
				return nil, err
			}
			b.Write(val)
		}
		b.WriteByte(']')
		return b.Bytes(), nil
	}
	return json.Marshal(v)
}

// emitBinary is the plaintext of a binary file: its "data" value.
func emitBinary(f *treeFile) ([]byte, error) {
	for _, it := range f.root {
		if it.key == "data" && !it.comment {
			if s, ok := it.value.(string); ok {
				return []byte(s), nil
			}
			return nil, &Error{Line: it.line, Col: 1, Err: errors.New("the \"data\" of a SOPS binary file is not a string")}
		}
	}
	return nil, &Error{Line: 1, Col: 1, Err: errors.New("a SOPS binary file without \"data\"")}
}
