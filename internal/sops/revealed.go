package sops

import (
	"encoding/base64"
	"encoding/json"
	"github.com/kubeplan/kubeplan/internal/ownwords"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// MinRevealedLen is the shortest text, in characters, that Scrub hides and
// Revealed returns: every occurrence of a revealed value is hidden wherever
// it appears, and hiding "1", "on" or "app" everywhere would hide most of
// the output and nothing worth hiding. It is the length the GitHub runner
// masks too (ghactions.MinMaskLen). Shorter values stay masked where they
// are Secret values (plan.MaskSecret).
const MinRevealedLen = 4

// Mask is what Scrub puts in place of a revealed value.
const Mask = "***"

// revealed is every value this process decrypted, in the forms it may
// take on its way to an output. It is process-wide on purpose: whatever
// path a decrypted value travels (a kustomize replacement, a generator, a
// patch that changes the kind, an error message), an output can hide it
// without being handed it.
var revealed struct {
	sync.Mutex
	masks    map[string]bool
	clear    map[string]bool // words of files read in the clear (SeenInClear)
	list     []string        // masks not in clear, sorted, longest first
	replacer *strings.Replacer
}

// reveal records a decrypted value: the plaintext, its base64 (as
// kustomize writes it into a Secret's data) and, when the plaintext is
// itself base64 of text (a SOPS-encrypted Secret's data), the decoded text.
func reveal(plain string) {
	forms := []string{plain, base64.StdEncoding.EncodeToString([]byte(plain))}
	if dec, ok := DecodeText(plain); ok {
		forms = append(forms, dec)
	}
	add(masksOf(forms...))
}

// RevealDocument records the base64 of a whole decrypted document, as a
// secretGenerator over the SOPS file writes it into a Secret's data. The
// document itself is not recorded: its lines ("kind: Secret") are not
// secret, its values are (Decrypt recorded them).
func RevealDocument(plain []byte) {
	if len(plain) == 0 {
		return
	}
	add(masksOf(base64.StdEncoding.EncodeToString(plain)))
}

// masksOf turns values into the texts to hide: one per line (outputs and
// the GitHub runner mask line by line), trimmed, of at least
// MinRevealedLen characters, each also as JSON and single-quoted YAML
// escape it.
func masksOf(values ...string) []string {
	var out []string
	for _, v := range values {
		for line := range strings.SplitSeq(v, "\n") {
			line = strings.TrimSpace(line)
			if utf8.RuneCountInString(line) < MinRevealedLen {
				continue
			}
			out = append(out, line, jsonEscaped(line, false), jsonEscaped(line, true),
				strings.ReplaceAll(line, "'", "''"))
		}
	}
	return out
}

// jsonEscaped is s as it appears inside a JSON string.
func jsonEscaped(s string, html bool) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(html)
	if enc.Encode(s) != nil {
		return s
	}
	q := strings.TrimSuffix(b.String(), "\n")
	return q[1 : len(q)-1]
}

func add(masks []string) {
	revealed.Lock()
	defer revealed.Unlock()
	if revealed.masks == nil {
		revealed.masks = map[string]bool{}
	}
	fresh := false
	for _, m := range masks {
		if !revealed.masks[m] {
			revealed.masks[m] = true
			fresh = true
		}
	}
	if fresh {
		rebuild()
	}
}

// rebuild makes the list and the replacer of the masks; revealed is
// locked.
func rebuild() {
	list := make([]string, 0, len(revealed.masks))
	for m := range revealed.masks {
		if !revealed.clear[m] && !ownwords.Forges(m) {
			list = append(list, m)
		}
	}
	if len(list) == 0 {
		revealed.list, revealed.replacer = nil, nil
		return
	}
	// Longest first, so a value inside another cannot leave part of the
	// longer one; then sorted, so the order is the same on every run.
	slices.SortFunc(list, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	pairs := make([]string, 0, 2*len(list))
	for _, m := range list {
		pairs = append(pairs, m, Mask)
	}
	revealed.list, revealed.replacer = list, strings.NewReplacer(pairs...)
}

// SeenInClear records the words of a file read in the clear (not
// SOPS-encrypted) while decrypting: a decrypted value that is also one of
// them, such as DB_USER "orders" for the Deployment "orders", is no
// secret to whoever wrote the file, and hiding it would hide every name
// it is part of. A word is a run of letters, digits, '.', '_' and '-' of
// MinRevealedLen characters or more; a value with any other character is
// never such a word. Values stay hidden as Secret values wherever they
// are (plan.MaskSecret).
func SeenInClear(data []byte) {
	words := map[string]bool{}
	start := -1
	for i := 0; i <= len(data); i++ {
		if i < len(data) && isWordByte(data[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start >= MinRevealedLen && i-start <= 256 {
			words[string(data[start:i])] = true
		}
		start = -1
	}
	if len(words) == 0 {
		return
	}
	revealed.Lock()
	defer revealed.Unlock()
	if revealed.clear == nil {
		revealed.clear = map[string]bool{}
	}
	changed := false
	for w := range words {
		if !revealed.clear[w] {
			revealed.clear[w] = true
			changed = changed || revealed.masks[w]
		}
	}
	if changed {
		rebuild()
	}
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
}

// Revealed returns the texts Scrub hides: every value this process
// decrypted from a SOPS file, line by line, in the forms it may take in
// an output (see reveal), longest first. It is nil until a value was
// decrypted.
func Revealed() []string {
	revealed.Lock()
	defer revealed.Unlock()
	return slices.Clone(revealed.list)
}

// Any reports whether a value was decrypted (Revealed is not empty).
func Any() bool {
	revealed.Lock()
	defer revealed.Unlock()
	return len(revealed.list) > 0
}

// Scrub returns s with every text of Revealed replaced by Mask.
func Scrub(s string) string {
	revealed.Lock()
	r := revealed.replacer
	revealed.Unlock()
	if r == nil {
		return s
	}
	return r.Replace(s)
}

// Contains reports whether s holds a text of Revealed.
func Contains(s string) bool {
	revealed.Lock()
	list := revealed.list
	revealed.Unlock()
	for _, m := range list {
		if strings.Contains(s, m) {
			return true
		}
	}
	return false
}

// DecodeText decodes base64 (white space ignored, as the API server does
// not, but people wrap long values) that is text worth masking: valid
// UTF-8 without control characters other than tab and line breaks.
func DecodeText(s string) (string, bool) {
	s = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b) == 0 || !utf8.Valid(b) {
		return "", false
	}
	for _, r := range string(b) {
		if unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r' {
			return "", false
		}
	}
	return string(b), true
}

// Holds reports whether a key or string anywhere under v (JSON-like values:
// maps, lists, scalars) holds a text of Revealed.
func Holds(v any) bool {
	switch v := v.(type) {
	case string:
		return Contains(v)
	case map[string]any:
		for k, c := range v {
			if Contains(k) || Holds(c) {
				return true
			}
		}
	case []any:
		for _, c := range v {
			if Holds(c) {
				return true
			}
		}
	}
	return false
}
