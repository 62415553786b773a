package sopstest

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha512"
	"encoding/base64"
	"fmt"
	"hash"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"filippo.io/age"
	"filippo.io/age/armor"
	"github.com/ProtonMail/go-crypto/openpgp"
	pgparmor "github.com/ProtonMail/go-crypto/openpgp/armor"
	yaml "go.yaml.in/yaml/v3"
)

// Encrypt encrypts every value under a key matching encryptedRegex (all
// values when it is empty) for the age recipient, and adds the "sops"
// metadata to the first document.
func Encrypt(plain []byte, recipient, encryptedRegex string) ([]byte, error) {
	return EncryptFor(plain, Recipients{Age: recipient}, encryptedRegex)
}

// Recipients are who a file is encrypted for: an age recipient, a PGP
// key, or both.
type Recipients struct {
	Age string
	PGP *openpgp.Entity
}

// EncryptFor is Encrypt for the recipients rs.
func EncryptFor(plain []byte, rs Recipients, encryptedRegex string) ([]byte, error) {
	var err error
	var re *regexp.Regexp
	if encryptedRegex != "" {
		if re, err = regexp.Compile(encryptedRegex); err != nil {
			return nil, err
		}
	}
	var docs []*yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(plain))
	for {
		var n yaml.Node
		if err := dec.Decode(&n); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		docs = append(docs, &n)
	}
	if len(docs) == 0 {
		return nil, fmt.Errorf("no YAML document")
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	e := &encrypter{key: key, re: re, mac: sha512.New()}
	for _, d := range docs {
		if err := e.walk(d.Content[0], nil); err != nil {
			return nil, err
		}
	}
	modified := time.Now().UTC().Format(time.RFC3339)
	mac, err := seal(key, []byte(fmt.Sprintf("%X", e.mac.Sum(nil))), modified, "str")
	if err != nil {
		return nil, err
	}
	meta := map[string]any{
		"lastmodified": modified,
		"mac":          mac,
		"version":      "3.13.3",
	}
	if rs.Age != "" {
		enc, err := ageStanza(key, rs.Age)
		if err != nil {
			return nil, err
		}
		meta["age"] = []map[string]string{{"recipient": rs.Age, "enc": enc}}
	}
	if rs.PGP != nil {
		enc, err := pgpStanza(key, rs.PGP)
		if err != nil {
			return nil, err
		}
		meta["pgp"] = []map[string]string{{"fp": fmt.Sprintf("%X", rs.PGP.PrimaryKey.Fingerprint), "enc": enc, "created_at": modified}}
	}
	if encryptedRegex != "" {
		meta["encrypted_regex"] = encryptedRegex
	}
	var metaNode yaml.Node
	if err := metaNode.Encode(meta); err != nil {
		return nil, err
	}
	top := docs[0].Content[0]
	top.Content = append(top.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "sops"}, &metaNode)
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(4)
	for _, d := range docs {
		if err := enc.Encode(d); err != nil {
			return nil, err
		}
	}
	return out.Bytes(), enc.Close()
}

type encrypter struct {
	key []byte
	re  *regexp.Regexp
	mac hash.Hash
}

func (e *encrypter) walk(n *yaml.Node, path []string) error {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if err := e.walk(n.Content[i+1], append(path[:len(path):len(path)], n.Content[i].Value)); err != nil {
				return err
			}
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if err := e.walk(c, path); err != nil {
				return err
			}
		}
	case yaml.ScalarNode:
		return e.scalar(n, path)
	}
	return nil
}

func (e *encrypter) scalar(n *yaml.Node, path []string) error {
	var v any
	if err := n.Decode(&v); err != nil {
		return err
	}
	var text, typ string
	switch v := v.(type) {
	case nil:
		return nil
	case string:
		text, typ = v, "str"
	case int:
		text, typ = strconv.Itoa(v), "int"
	case float64:
		text, typ = strconv.FormatFloat(v, 'f', -1, 64), "float"
	case bool:
		text, typ = map[bool]string{true: "True", false: "False"}[v], "bool"
	default:
		return fmt.Errorf("sopstest: unsupported value %T", v)
	}
	e.mac.Write([]byte(text))
	if e.re != nil && !matchesAny(e.re, path) || e.re == nil && hasSuffix(path, "_unencrypted") || text == "" {
		return nil
	}
	if typ == "bool" {
		text = strings.ToLower(text)
	}
	s, err := seal(e.key, []byte(text), strings.Join(path, ":")+":", typ)
	if err != nil {
		return err
	}
	n.Kind, n.Tag, n.Value, n.Style = yaml.ScalarNode, "!!str", s, 0
	return nil
}

func hasSuffix(path []string, suffix string) bool {
	for _, k := range path {
		if strings.HasSuffix(k, suffix) {
			return true
		}
	}
	return false
}

func matchesAny(re *regexp.Regexp, path []string) bool {
	for _, k := range path {
		if re.MatchString(k) {
			return true
		}
	}
	return false
}

// seal is one SOPS encrypted value: AES-256-GCM with a 32-byte nonce.
func seal(key, plain []byte, aad, typ string) (string, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return "", err
	}
	gcm, err := cipher.NewGCMWithNonceSize(block, 32)
	if err != nil {
		return "", err
	}
	iv := make([]byte, 32)
	if _, err := rand.Read(iv); err != nil {
		return "", err
	}
	ct := gcm.Seal(nil, iv, plain, []byte(aad))
	data, tag := ct[:len(ct)-gcm.Overhead()], ct[len(ct)-gcm.Overhead():]
	b := base64.StdEncoding.EncodeToString
	return fmt.Sprintf("ENC[AES256_GCM,data:%s,iv:%s,tag:%s,type:%s]", b(data), b(iv), b(tag), typ), nil
}

// ageStanza is the data key encrypted for an age recipient, armored.
func ageStanza(key []byte, recipient string) (string, error) {
	rcpt, err := age.ParseX25519Recipient(recipient)
	if err != nil {
		return "", err
	}
	var armored bytes.Buffer
	aw := armor.NewWriter(&armored)
	w, err := age.Encrypt(aw, rcpt)
	if err != nil {
		return "", err
	}
	if err := writeClosing(key, w, aw); err != nil {
		return "", err
	}
	return armored.String() + "\n", nil
}

// pgpStanza is the data key encrypted for a PGP key, as an armored message.
func pgpStanza(key []byte, to *openpgp.Entity) (string, error) {
	var buf bytes.Buffer
	aw, err := pgparmor.Encode(&buf, "PGP MESSAGE", nil)
	if err != nil {
		return "", err
	}
	w, err := openpgp.Encrypt(aw, []*openpgp.Entity{to}, nil, nil, nil)
	if err != nil {
		return "", err
	}
	if err := writeClosing(key, w, aw); err != nil {
		return "", err
	}
	return buf.String() + "\n", nil
}

// writeClosing writes the data key through the encrypting writer w, then closes w
// and the armoring writer under it, in that order.
func writeClosing(key []byte, w, armored io.WriteCloser) error {
	if _, err := w.Write(key); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return armored.Close()
}
