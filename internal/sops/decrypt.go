package sops

import (
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"fmt"
	"hash"
	"strconv"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v3"
)

// macOnlyEncryptedInit starts the MAC of a file with mac_only_encrypted,
// as SOPS does, so that it never equals the MAC over every value: the
// SHA-256 of "sops".
var macOnlyEncryptedInit = func() []byte { s := sha256.Sum256([]byte("sops")); return s[:] }()

// Error is a problem at a position of the file.
type Error struct {
	Line, Col int
	Err       error
}

func (e *Error) Error() string { return fmt.Sprintf("%d:%d: %v", e.Line, e.Col, e.Err) }
func (e *Error) Unwrap() error { return e.Err }

// Decrypt decrypts a SOPS-encrypted file in place: docs are its YAML
// documents, m its metadata (Find). Every encrypted value becomes its
// plaintext scalar (with its type), the "sops" key is removed from every
// document, and the MAC is verified: on any error the documents must not
// be used (they may be half decrypted). keys open the data key.
//
// Every value decrypted is recorded at once for Scrub and Revealed, so no
// output shows it, whichever object or message it is copied into.
func Decrypt(docs []*yaml.Node, m *Metadata, keys *Keys) error {
	if m.Err != nil {
		return m.Err
	}
	key, err := dataKey(m, keys)
	if err != nil {
		return &Error{Line: m.Node.Line, Col: m.Node.Column, Err: err}
	}
	d := &decrypter{key: key, meta: m, mac: sha512.New()}
	if m.MACOnlyEncrypted {
		d.mac.Write(macOnlyEncryptedInit)
	}
	for _, doc := range docs {
		top := doc
		if top.Kind == yaml.DocumentNode && len(top.Content) == 1 {
			top = top.Content[0]
		}
		d.comments(nil, doc)
		if err := d.walk(top, nil, true); err != nil {
			return err
		}
		DropMetadata(doc)
	}
	return d.verify()
}

type decrypter struct {
	key  []byte
	meta *Metadata
	mac  hash.Hash
}

// walk decrypts the values under n; path is the mapping keys on the way.
func (d *decrypter) walk(n *yaml.Node, path []string, top bool) error {
	switch n.Kind {
	case yaml.MappingNode:
		d.comments(path, n)
		for i := 0; i+1 < len(n.Content); i += 2 {
			d.comments(path, n.Content[i], n.Content[i+1])
			k := n.Content[i].Value
			if top && k == MetadataKey {
				continue
			}
			if err := d.walk(n.Content[i+1], append(path[:len(path):len(path)], k), false); err != nil {
				return err
			}
		}
	case yaml.SequenceNode:
		d.comments(path, n.Content...)
		for _, c := range n.Content {
			if err := d.walk(c, path, false); err != nil {
				return err
			}
		}
	case yaml.ScalarNode:
		return d.scalar(n, path)
	}
	return nil
}

// scalar decrypts one value when it is encrypted and adds it to the MAC.
func (d *decrypter) scalar(n *yaml.Node, path []string) error {
	encrypted := d.meta.shouldBeEncrypted(path)
	if encrypted && n.Tag == "!!str" && IsEncryptedValue(n.Value) {
		plain, typ, err := decryptValue(n.Value, d.key, strings.Join(path, ":")+":")
		if err != nil {
			return &Error{Line: n.Line, Col: n.Column, Err: fmt.Errorf("%s: %w", strings.Join(path, "."), err)}
		}
		switch {
		case identityPath(path):
			// Printed as the object's name in every plan anyway; SOPS
			// encrypts it only by default (lint warns, see manifest).
		case typ == "str" || typ == "bytes" || typ == "int" || typ == "float":
			// Recorded before anything can print it (see Revealed). A
			// bool or time is not: "true" and a date hide nothing.
			reveal(string(plain))
		}
		b, err := setPlain(n, plain, typ)
		if err != nil {
			return &Error{Line: n.Line, Col: n.Column, Err: fmt.Errorf("%s: %w", strings.Join(path, "."), err)}
		}
		if b != nil {
			d.mac.Write(b)
		}
		return nil
	}
	if d.meta.MACOnlyEncrypted && !encrypted {
		return nil
	}
	b, err := plainBytes(n)
	if err != nil {
		return &Error{Line: n.Line, Col: n.Column, Err: err}
	}
	d.mac.Write(b)
	return nil
}

// identityPath reports whether path is one of an object's identity:
// apiVersion, kind, metadata.name or metadata.namespace.
func identityPath(path []string) bool {
	switch len(path) {
	case 1:
		return path[0] == "apiVersion" || path[0] == "kind"
	case 2:
		return path[0] == "metadata" && (path[1] == "name" || path[1] == "namespace")
	}
	return false
}

// setPlain turns n into the decrypted value and returns the bytes the MAC
// covers for it (nil for a comment).
func setPlain(n *yaml.Node, plain []byte, typ string) ([]byte, error) {
	s := string(plain)
	n.Style = 0
	switch typ {
	case "str", "bytes":
		n.Tag, n.Value, n.Style = "!!str", s, yaml.DoubleQuotedStyle
		return plain, nil
	case "int":
		v, err := strconv.Atoi(s)
		if err != nil {
			return nil, fmt.Errorf("decrypted int %w", err)
		}
		n.Tag, n.Value = "!!int", s
		return []byte(strconv.Itoa(v)), nil
	case "float":
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("decrypted float %w", err)
		}
		n.Tag, n.Value = "!!float", s
		return []byte(strconv.FormatFloat(v, 'f', -1, 64)), nil
	case "bool":
		v, err := strconv.ParseBool(s)
		if err != nil {
			return nil, fmt.Errorf("decrypted bool %w", err)
		}
		n.Tag, n.Value = "!!bool", strconv.FormatBool(v)
		return boolBytes(v), nil
	case "time":
		var t time.Time
		if err := t.UnmarshalText(plain); err != nil {
			return nil, fmt.Errorf("decrypted time %w", err)
		}
		n.Tag, n.Value = "!!timestamp", s
		return t.MarshalText()
	case "comment":
		n.Tag, n.Value = "!!str", s
		return nil, nil
	}
	return nil, fmt.Errorf("unknown sops value type %q", typ)
}

// plainBytes is what the MAC covers for a value SOPS left in the clear:
// its value as SOPS's YAML store reads it, printed as SOPS prints it.
func plainBytes(n *yaml.Node) ([]byte, error) {
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, err
	}
	if v == nil {
		return nil, nil
	}
	if b, err := valueBytes(v); err == nil {
		return b, nil
	}
	return []byte(n.Value), nil
}

func boolBytes(v bool) []byte {
	if v {
		return []byte("True")
	}
	return []byte("False")
}

// verify compares the MAC of the decrypted values with the file's.
func (d *decrypter) verify() error {
	m := d.meta
	node := child(m.Node, "mac")
	pos := &Error{Line: m.Node.Line, Col: m.Node.Column}
	if node != nil {
		pos.Line, pos.Col = node.Line, node.Column
	}
	aad := m.LastModified
	if t, err := time.Parse(time.RFC3339, m.LastModified); err == nil {
		aad = t.Format(time.RFC3339)
	}
	want, _, err := decryptValue(m.MAC, d.key, aad)
	if err != nil {
		pos.Err = fmt.Errorf("the sops MAC does not decrypt: %w", err)
		return pos
	}
	got := fmt.Sprintf("%X", d.mac.Sum(nil))
	if subtle.ConstantTimeCompare([]byte(got), want) != 1 {
		pos.Err = fmt.Errorf("the sops MAC does not match the values: the file was changed after it was encrypted (edit it with sops)")
		return pos
	}
	return nil
}

// DropMetadata removes the top-level "sops" key of a document (a
// DocumentNode or its mapping).
func DropMetadata(doc *yaml.Node) {
	top := doc
	if top.Kind == yaml.DocumentNode && len(top.Content) == 1 {
		top = top.Content[0]
	}
	if top.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value == MetadataKey {
			top.Content = append(top.Content[:i], top.Content[i+2:]...)
			return
		}
	}
}
