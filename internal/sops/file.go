package sops

import (
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Format is how a SOPS file stores its values, as SOPS names its stores.
type Format int

// The formats SOPS encrypts.
const (
	FormatBinary Format = iota
	FormatYAML
	FormatJSON
	FormatDotenv
	FormatINI
)

func (f Format) String() string {
	return [...]string{"binary", "YAML", "JSON", "dotenv", "INI"}[f]
}

// FormatForPath is the format SOPS (and Flux) read a file in, from its
// name: .yaml/.yml, .json, .env, .ini, anything else binary. A name ending
// in .dockerconfigjson is JSON, as Flux has it.
func FormatForPath(path string) Format {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml":
		return FormatYAML
	case ".json", ".dockerconfigjson":
		return FormatJSON
	case ".env":
		return FormatDotenv
	case ".ini":
		return FormatINI
	}
	return FormatBinary
}

// markers are texts every SOPS file of a format holds (its MAC), the test
// Flux makes of a Secret's data value before decrypting it.
var markers = []struct {
	f      Format
	marker string
}{
	{FormatYAML, "mac: ENC["},
	{FormatJSON, `"mac": "ENC[`},
	{FormatDotenv, "sops_mac=ENC["},
	{FormatINI, "[sops]"},
}

// Detect reports the format data is SOPS-encrypted in, from its content
// (the MAC as each format writes it, and metadata that format's reader
// finds; a JSON file with a "data" key alone is binary), false when it is
// not SOPS-encrypted.
func Detect(data []byte) (Format, bool) {
	for _, m := range markers {
		if !bytes.Contains(data, []byte(m.marker)) {
			continue
		}
		if m.f == FormatINI && !bytes.Contains(data, []byte("ENC[AES256_GCM,")) {
			continue
		}
		var f *treeFile
		var err error
		switch m.f {
		case FormatYAML:
			return m.f, true // the YAML decrypter checks the rest
		case FormatJSON:
			f, err = loadJSON(data)
		case FormatDotenv:
			f, err = loadDotenv(data)
		case FormatINI:
			f, err = loadINI(data)
		}
		if err != nil || f.meta == nil {
			continue // the marker, but not a file SOPS wrote in that format
		}
		if m.f == FormatJSON && len(f.root) == 1 && f.root[0].key == "data" {
			return FormatBinary, true
		}
		return m.f, true
	}
	return 0, false
}

// ErrNotEncrypted is returned by DecryptFile for data that is not a SOPS
// file of the format.
var ErrNotEncrypted = errNotSOPS

// DecryptFile decrypts a SOPS file stored in format in and returns its
// plaintext in format out, as `sops -d --input-type in --output-type out`
// prints it (out may differ from in only for the binary format of a
// single "data" value, and YAML, JSON and the flat formats of a flat
// file). Every value decrypted is recorded for Scrub first. An error at a
// place of the file is an *Error.
func DecryptFile(data []byte, in, out Format, keys *Keys) ([]byte, error) {
	if in == FormatYAML {
		return decryptYAMLFile(data, out, keys)
	}
	var f *treeFile
	var err error
	switch in {
	case FormatDotenv:
		f, err = loadDotenv(data)
	case FormatINI:
		f, err = loadINI(data)
	default:
		f, err = loadJSON(data)
	}
	if err != nil {
		return nil, err
	}
	if err := decryptTree(f, keys); err != nil {
		return nil, err
	}
	plain, err := emit(f, out)
	if err == nil && out != FormatBinary {
		RevealDocument(plain)
	}
	return plain, err
}

// emit prints a decrypted tree in format out.
func emit(f *treeFile, out Format) ([]byte, error) {
	switch out {
	case FormatDotenv:
		return emitDotenv(f), nil
	case FormatINI:
		return emitINI(f)
	case FormatJSON:
		return emitJSON(f)
	case FormatBinary:
		return emitBinary(f)
	}
	return nil, errors.New("a SOPS file of this format cannot be printed as YAML by kubeplan")
}

// decryptYAMLFile decrypts a SOPS YAML file and prints it as YAML (the
// documents, without the metadata) or, for a binary file, its "data".
func decryptYAMLFile(data []byte, out Format, keys *Keys) ([]byte, error) {
	var docs []*yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &Error{Line: 1, Col: 1, Err: err}
		}
		docs = append(docs, &n)
	}
	m := Find(docs)
	if m == nil {
		return nil, errNotSOPS
	}
	if err := Decrypt(docs, m, keys); err != nil {
		return nil, err
	}
	if out == FormatBinary {
		if len(docs) == 1 {
			if d := child(docs[0].Content[0], "data"); d != nil && d.Kind == yaml.ScalarNode {
				return []byte(d.Value), nil
			}
		}
		return nil, &Error{Line: 1, Col: 1, Err: errors.New("a SOPS binary file without \"data\"")}
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(4)
	for _, d := range docs {
		Layout(d)
		if err := enc.Encode(d); err != nil {
			return nil, err
		}
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	RevealDocument(buf.Bytes())
	return buf.Bytes(), nil
}

// Verify decrypts a SOPS file of format in and checks its MAC, for lint:
// nil when it decrypts with keys and the MAC matches.
func Verify(data []byte, in Format, keys *Keys) error {
	out := in
	if in == FormatBinary {
		out = FormatBinary
	}
	_, err := DecryptFile(data, in, out, keys)
	return err
}
