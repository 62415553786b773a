package manifest

import (
	"bytes"
	"errors"
	"fmt"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeplan/kubeplan/internal/sops"
)

// Rules of the problems SOPS files raise.
const (
	// RuleSOPSDecrypt: a SOPS file could not be decrypted (no key fits, the
	// MAC does not match): nothing is planned or applied.
	RuleSOPSDecrypt = "sops-decrypt"
	// RuleSOPSUnencrypted: a Secret value in a SOPS file is in the clear
	// where SOPS would have encrypted it: it was added by hand.
	RuleSOPSUnencrypted = "sops-unencrypted"
	// RuleSOPSIdentity: a SOPS file encrypts apiVersion, kind or
	// metadata.name, so lint cannot tell what the object is.
	RuleSOPSIdentity = "sops-encrypted-identity"
)

// Decryption says what to do with SOPS-encrypted files. The zero value
// reads them as they are in git, for lint: the "sops" metadata is dropped
// and every ENC[...] value stands for a value of its type. With Decrypt
// set, their values are decrypted in memory with Keys (for plan and
// apply); a file that does not decrypt is a problem and yields no object.
type Decryption struct {
	Decrypt bool
	// Keys decrypt (Decrypt) or, for lint, verify the MAC of every SOPS
	// file read: a file changed after it was encrypted is a sops-decrypt
	// error.
	Keys *sops.Keys
	// KeysErr is why the keys could not be read: it is reported for a
	// file that needs them.
	KeysErr error
}

// Reveals reports whether SOPS values are decrypted in this run: to
// apply them, or to verify the MACs (lint with a key at hand). Then what
// the repository writes in the clear is noted (sops.SeenInClear).
func (d Decryption) Reveals() bool { return d.Decrypt || !d.Keys.Empty() }

// MaybeSOPS is a cheap test for a file SOPS may have encrypted.
func MaybeSOPS(data []byte) bool {
	return bytes.Contains(data, []byte("\nsops:")) && bytes.Contains(data, []byte("ENC[AES256_GCM,"))
}

// ParseFile is Parse for a file that may be SOPS-encrypted.
func ParseFile(file string, data []byte, dec Decryption) ([]*Object, []*Problem) {
	if MaybeSOPS(data) {
		if objs, probs, ok := parseSOPS(file, data, dec); ok {
			return objs, probs
		}
	}
	if dec.Reveals() {
		sops.SeenInClear(data)
	}
	return Parse(file, data)
}

// sopsDoc is one document of a SOPS file.
type sopsDoc struct {
	node  *yaml.Node
	lines *lineMap
	index int
}

// parseSOPS reads a SOPS-encrypted file. ok is false when the file is not
// one (or does not parse: Parse then reports it as for any file).
func parseSOPS(file string, data []byte, dec Decryption) (objs []*Object, probs []*Problem, ok bool) {
	docs, probs, ok := readSOPS(file, data, dec)
	if !ok || docs == nil {
		return nil, probs, ok
	}
	for _, d := range docs {
		o, p := objectsOfNode(file, d.index, d.lines, d.node)
		for _, obj := range o {
			obj.Encrypted = true
		}
		objs = append(objs, o...)
		probs = append(probs, p...)
	}
	return objs, probs, true
}

// SopsPlain is a SOPS-encrypted file as kustomize reads it: its documents
// decrypted (dec.Decrypt) or with opaque values, without the "sops"
// metadata, as YAML. ok is false for a file that is not SOPS-encrypted.
func SopsPlain(file string, data []byte, dec Decryption) (out []byte, probs []*Problem, ok bool) {
	docs, probs, ok := readSOPS(file, data, dec)
	if !ok || docs == nil {
		return nil, probs, ok
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(4)
	for _, d := range docs {
		if dec.Decrypt {
			sops.Layout(d.node) // as sops -d prints it: a generator's file input is these bytes
		}
		if err := enc.Encode(d.node); err != nil {
			return nil, []*Problem{{File: file, Pos: Pos{1, 1}, Rule: RuleSOPSDecrypt, Message: err.Error()}}, true
		}
	}
	if err := enc.Close(); err != nil {
		return nil, []*Problem{{File: file, Pos: Pos{1, 1}, Rule: RuleSOPSDecrypt, Message: err.Error()}}, true
	}
	if dec.Decrypt {
		// A secretGenerator over the file writes this, in base64.
		sops.RevealDocument(buf.Bytes())
	}
	return buf.Bytes(), probs, true
}

// readSOPS parses a SOPS-encrypted file and decrypts it (dec.Decrypt) or
// makes its values opaque and reports values left in the clear. docs is
// nil when it does not decrypt (probs says why). ok is false when the
// file is not SOPS-encrypted or does not parse.
func readSOPS(file string, data []byte, dec Decryption) (docs []sopsDoc, probs []*Problem, ok bool) {
	if p := checkText(file, data); p != nil {
		return nil, nil, false
	}
	var nodes []*yaml.Node
	for _, c := range SplitDocuments(data) {
		if len(bytes.TrimSpace(c.Data)) == 0 {
			continue
		}
		n, next, err := DecodeYAML(c.Data)
		if err != nil || next != nil {
			return nil, nil, false
		}
		if n == nil || len(n.Content) == 0 {
			continue
		}
		docs = append(docs, sopsDoc{node: n, lines: NewLineMap(c), index: len(docs)})
		nodes = append(nodes, n)
	}
	m := sops.Find(nodes)
	if m == nil {
		return nil, nil, false
	}
	first := docs[0]
	for _, d := range docs {
		if nodeWithin(d.node, m.Node) {
			first = d
			break
		}
	}
	if dec.Decrypt {
		if dec.KeysErr != nil {
			return nil, []*Problem{{File: file, Pos: first.lines.pos(m.Node.Line, m.Node.Column), Rule: RuleSOPSDecrypt,
				Message: "SOPS-encrypted file does not decrypt: reading the keys: " + dec.KeysErr.Error()}}, true
		}
		if err := sops.Decrypt(nodes, m, dec.Keys); err != nil {
			pos := first.lines.pos(m.Node.Line, m.Node.Column)
			msg := err.Error()
			var se *sops.Error
			if errors.As(err, &se) {
				pos, msg = first.lines.pos(se.Line, se.Col), se.Err.Error()
			}
			return nil, []*Problem{{File: file, Pos: pos, Rule: RuleSOPSDecrypt,
				Message: "SOPS-encrypted file does not decrypt: " + msg}}, true
		}
		return docs, nil, true
	}
	if !dec.Keys.Empty() {
		// lint with a key at hand: the MAC is checked, so a file changed
		// after it was encrypted fails the pre-commit hook.
		if err := sops.Verify(data, sops.FormatYAML, dec.Keys); err != nil {
			probs = append(probs, sopsProblem(file, first.lines.pos(m.Node.Line, m.Node.Column), sops.FormatYAML, err))
		}
	}
	var kept []sopsDoc
	for _, d := range docs {
		if p := encryptedIdentity(file, d); p != nil {
			probs = append(probs, p)
			continue
		}
		probs = append(probs, unencryptedValues(file, d, m)...)
		opaque(d.node)
		sops.DropMetadata(d.node)
		kept = append(kept, d)
	}
	if kept == nil {
		kept = []sopsDoc{} // not nil: the file was read
	}
	return kept, probs, true
}

// encryptedIdentity reports a document whose apiVersion, kind or name SOPS
// encrypted (its default, without encrypted_regex): offline, nothing can be
// checked, and kustomize could not patch it.
func encryptedIdentity(file string, d sopsDoc) *Problem {
	top := d.node.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil
	}
	fields := []*yaml.Node{mappingValue(top, "apiVersion"), mappingValue(top, "kind")}
	if md := mappingValue(top, "metadata"); md != nil && md.Kind == yaml.MappingNode {
		fields = append(fields, mappingValue(md, "name"))
	}
	for _, n := range fields {
		if n != nil && n.Kind == yaml.ScalarNode && sops.IsEncryptedValue(n.Value) {
			return &Problem{File: file, Pos: d.lines.pos(n.Line, n.Column), Rule: RuleSOPSIdentity, Warning: true,
				Message: "SOPS encrypted apiVersion, kind and metadata, so this object cannot be checked offline (plan decrypts it); encrypt only the values: sops --encrypt --encrypted-regex '^(data|stringData)$'"}
		}
	}
	return nil
}

// nodeWithin reports whether n is inside doc.
func nodeWithin(doc, n *yaml.Node) bool {
	if doc == n {
		return true
	}
	for _, c := range doc.Content {
		if nodeWithin(c, n) {
			return true
		}
	}
	return false
}

// unencryptedValues reports the values of a Secret's data and stringData
// that are in the clear although the file's rules say SOPS encrypts them:
// someone added them by hand after encrypting.
func unencryptedValues(file string, d sopsDoc, m *sops.Metadata) []*Problem {
	top := d.node.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil
	}
	if k := mappingValue(top, "kind"); k == nil || k.Value != "Secret" {
		return nil
	}
	var probs []*Problem
	for _, field := range []string{"data", "stringData"} {
		v := mappingValue(top, field)
		if v == nil || v.Kind != yaml.MappingNode {
			continue
		}
		for i := 0; i+1 < len(v.Content); i += 2 {
			k, val := v.Content[i], v.Content[i+1]
			if val.Kind != yaml.ScalarNode || val.Value == "" || sops.IsEncryptedValue(val.Value) || !m.ShouldBeEncrypted([]string{field, k.Value}) {
				continue
			}
			probs = append(probs, &Problem{File: file, Pos: d.lines.pos(val.Line, val.Column), Rule: RuleSOPSUnencrypted,
				Message: fmt.Sprintf("%s.%s is in the clear in a SOPS-encrypted file (added after it was encrypted?); encrypt it: sops --encrypt --in-place %s, or edit the file with sops", field, k.Value, file)})
		}
	}
	return probs
}

// opaque makes every ENC[...] value stand for a value of its type, so the
// schema check sees an int where SOPS encrypted an int.
func opaque(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		switch sops.EncryptedType(n.Value) {
		case "int":
			n.Tag, n.Value = "!!int", "0"
		case "float":
			n.Tag, n.Value = "!!float", "0.0"
		case "bool":
			n.Tag, n.Value = "!!bool", "false"
		}
		return
	}
	for _, c := range n.Content {
		opaque(c)
	}
}

// mappingValue is the value of key in mapping n, nil when absent.
func mappingValue(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}
