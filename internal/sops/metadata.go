package sops

import (
	"fmt"
	"regexp"

	yaml "go.yaml.in/yaml/v3"
)

// MetadataKey is the top-level key SOPS keeps its metadata under.
const MetadataKey = "sops"

// DefaultUnencryptedSuffix is the unencrypted_suffix SOPS applies when a
// file names none of the rules that choose the values it encrypts.
const DefaultUnencryptedSuffix = "_unencrypted"

// Metadata is what a file's "sops" mapping says.
type Metadata struct {
	// Node is the "sops" mapping (for positions).
	Node *yaml.Node

	Version      string
	MAC          string
	LastModified string

	Age []AgeRecipient
	PGP []PGPRecipient
	// Others names recipients of providers kubeplan does not decrypt with
	// ("kms arn:aws:kms:...", "gcp_kms projects/...", "azure_kv ...",
	// "hc_vault ..."), for the error when no key fits.
	Others []string
	// KeyGroups is true when the data key is split across key groups
	// (Shamir), which kubeplan does not support.
	KeyGroups bool

	// Err is why the metadata cannot be used (a rule's regex does not
	// compile); Decrypt returns it.
	Err error

	UnencryptedSuffix string
	EncryptedSuffix   string
	UnencryptedRegex  *regexp.Regexp
	EncryptedRegex    *regexp.Regexp
	MACOnlyEncrypted  bool
}

// AgeRecipient is one age recipient and the data key encrypted for it.
type AgeRecipient struct {
	Recipient string
	Enc       string
}

// PGPRecipient is one PGP key and the data key encrypted for it.
type PGPRecipient struct {
	Fingerprint string
	Enc         string
}

// Recipients names every recipient, for messages: "age1ql3z...",
// "pgp FBC7B9E2A4F9289AC0C1D4843D16CEE4A27381B4", "kms arn:...".
func (m *Metadata) Recipients() []string {
	var out []string
	for _, a := range m.Age {
		out = append(out, a.Recipient)
	}
	for _, p := range m.PGP {
		out = append(out, "pgp "+p.Fingerprint)
	}
	return append(out, m.Others...)
}

// Find returns the SOPS metadata of a file, read from its first document
// that has a top-level "sops" mapping with a mac and a version (SOPS puts
// it in the first). It returns nil for a file SOPS did not encrypt.
func Find(docs []*yaml.Node) *Metadata {
	for _, d := range docs {
		n := metadataNode(d)
		if n == nil {
			continue
		}
		if scalar(n, "mac") == "" && scalar(n, "version") == "" {
			continue // a "sops" key that is not SOPS's
		}
		m, err := parseMetadata(n)
		m.Err = err
		return m
	}
	return nil
}

// metadataNode is the value of the document's top-level "sops" key, when it
// is a mapping.
func metadataNode(doc *yaml.Node) *yaml.Node {
	top := doc
	if top != nil && top.Kind == yaml.DocumentNode && len(top.Content) == 1 {
		top = top.Content[0]
	}
	if top == nil || top.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value == MetadataKey && top.Content[i+1].Kind == yaml.MappingNode {
			return top.Content[i+1]
		}
	}
	return nil
}

// parseMetadata reads the "sops" mapping. A regex that does not compile is
// an error at its position.
func parseMetadata(n *yaml.Node) (*Metadata, error) {
	m := &Metadata{
		Node:              n,
		Version:           scalar(n, "version"),
		MAC:               scalar(n, "mac"),
		LastModified:      scalar(n, "lastmodified"),
		UnencryptedSuffix: scalar(n, "unencrypted_suffix"),
		EncryptedSuffix:   scalar(n, "encrypted_suffix"),
		MACOnlyEncrypted:  scalar(n, "mac_only_encrypted") == "true",
	}
	var err error
	for _, r := range []struct {
		key string
		dst **regexp.Regexp
	}{{"unencrypted_regex", &m.UnencryptedRegex}, {"encrypted_regex", &m.EncryptedRegex}} {
		if s := scalar(n, r.key); s != "" {
			re, cerr := regexp.Compile(s)
			if cerr != nil && err == nil {
				v := child(n, r.key)
				err = fmt.Errorf("%d:%d: sops %s %q does not compile: %w", v.Line, v.Column, r.key, s, cerr)
			}
			*r.dst = re
		}
	}
	if m.UnencryptedSuffix == "" && m.EncryptedSuffix == "" && m.UnencryptedRegex == nil && m.EncryptedRegex == nil {
		// SOPS's default, when the file names no rule
		m.UnencryptedSuffix = DefaultUnencryptedSuffix
	}
	readRecipients(m, n)
	if g := child(n, "key_groups"); g != nil && g.Kind == yaml.SequenceNode && len(g.Content) > 0 {
		m.KeyGroups = true
		for _, group := range g.Content {
			readRecipients(m, group)
		}
	}
	return m, err
}

// readRecipients adds the recipients listed in mapping n (the metadata
// itself or one key group).
func readRecipients(m *Metadata, n *yaml.Node) {
	for _, a := range items(child(n, "age")) {
		m.Age = append(m.Age, AgeRecipient{Recipient: scalar(a, "recipient"), Enc: scalar(a, "enc")})
	}
	for _, p := range items(child(n, "pgp")) {
		m.PGP = append(m.PGP, PGPRecipient{Fingerprint: scalar(p, "fp"), Enc: scalar(p, "enc")})
	}
	for _, o := range []struct{ key, id string }{
		{"kms", "arn"}, {"gcp_kms", "resource_id"}, {"azure_kv", "vault_url"}, {"hc_vault", "vault_address"}, {"hckms", "key_id"},
	} {
		for _, k := range items(child(n, o.key)) {
			m.Others = append(m.Others, o.key+" "+scalar(k, o.id))
		}
	}
}

// child is the value of key in mapping n, nil when absent.
func child(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// scalar is the scalar value of key in mapping n, "" when absent.
func scalar(n *yaml.Node, key string) string {
	if c := child(n, key); c != nil && c.Kind == yaml.ScalarNode {
		return c.Value
	}
	return ""
}

// items are the elements of a sequence node, nil for anything else.
func items(n *yaml.Node) []*yaml.Node {
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	return n.Content
}
