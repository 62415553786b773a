package sops

import (
	"encoding/base64"
	"slices"
	"strings"
	"testing"
)

// Decrypting records every decrypted value at once, in the forms it takes
// on the way to an output: the plaintext, its base64, the text a base64
// value decodes to, JSON- and YAML-escaped, line by line. Scrub hides
// them all; short values, bools and values left in the clear are not
// recorded.
func TestDecryptRevealsValues(t *testing.T) {
	resetRevealed(t)
	docs := readDocs(t, "db-credentials.all.enc.yaml")
	if err := Decrypt(docs, Find(docs), fixtureKeys(t)); err != nil {
		t.Fatal(err)
	}
	const pw = "s3cr3t-Pa55w0rd-orders"
	list := Revealed()
	for _, want := range []string{
		pw,
		base64.StdEncoding.EncodeToString([]byte(pw)), // a kustomize secretGenerator writes this
		"-----BEGIN CERTIFICATE-----",                 // data.ca.crt decoded, line by line
		"MIIBkTCCATegAwIBAgIIfakeca",
		"orders", // DB_USER
	} {
		if !slices.Contains(list, want) {
			t.Errorf("Revealed lacks %q", want)
		}
	}
	// SOPS encrypted the identity too (its default): that is printed as
	// the object's name in every plan, not hidden.
	for _, not := range []string{"db-credentials", "Secret"} {
		if slices.Contains(list, not) {
			t.Errorf("Revealed holds %q, the object's identity", not)
		}
	}
	resetRevealed(t)
	docs = readDocs(t, "db-credentials.regex.enc.yaml")
	if err := Decrypt(docs, Find(docs), fixtureKeys(t)); err != nil {
		t.Fatal(err)
	}
	if slices.Contains(Revealed(), "Opaque") || !slices.Contains(Revealed(), pw) {
		t.Errorf("a value in the clear is revealed, or a decrypted one is not: %q", Revealed())
	}
	in := "password " + pw + ", as json \"" + pw + "\", in base64 " + base64.StdEncoding.EncodeToString([]byte(pw))
	got := Scrub(in)
	if strings.Contains(got, "s3cr3t") || strings.Count(got, Mask) != 3 {
		t.Errorf("Scrub(%q) = %q", in, got)
	}
	if !Contains("x"+pw+"x") || Contains("nothing secret here") {
		t.Error("Contains is wrong")
	}
}

// The masks of a value: per line, trimmed, at least MinRevealedLen
// characters, each line also as JSON and single-quoted YAML write it.
func TestMasksOf(t *testing.T) {
	got := masksOf("it's \"quoted\" <b>\n  ab \nline-two\n")
	slices.Sort(got)
	got = slices.Compact(got)
	want := []string{
		"it''s \"quoted\" <b>",
		"it's \"quoted\" <b>",
		`it's \"quoted\" <b>`,
		`it's \"quoted\" \u003cb\u003e`,
		"line-two",
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("masksOf = %q\nwant %q", got, want)
	}
	if masksOf("abc", "", "\n\n") != nil {
		t.Error("short values must not be masks")
	}
}

// A value inside another is hidden with the longer one, leaving no part of
// it; the whole document's base64 is recorded, its lines are not.
func TestScrubLongestFirst(t *testing.T) {
	resetRevealed(t)
	reveal("zq-inner-zq")
	reveal("zq-outer-zq-inner-zq-end")
	if got := Scrub("[zq-outer-zq-inner-zq-end] [zq-inner-zq]"); got != "[***] [***]" {
		t.Errorf("Scrub = %q", got)
	}
	doc := []byte("kind: Secret\nstringData: {k: zq-value-zq}\n")
	RevealDocument(doc)
	if b := base64.StdEncoding.EncodeToString(doc); Scrub(b) != Mask {
		t.Errorf("the document's base64 is not hidden")
	}
	if Scrub("kind: Secret") != "kind: Secret" {
		t.Error("a document's lines must not be hidden")
	}
}

// resetRevealed empties the process-wide record for one test and restores
// it after.
func resetRevealed(t *testing.T) {
	revealed.Lock()
	masks := revealed.masks
	revealed.masks, revealed.clear, revealed.list, revealed.replacer = nil, nil, nil, nil
	revealed.Unlock()
	t.Cleanup(func() {
		revealed.Lock()
		revealed.masks, revealed.clear, revealed.list, revealed.replacer = nil, nil, nil, nil
		revealed.Unlock()
		var list []string
		for m := range masks {
			list = append(list, m)
		}
		add(list)
	})
}

// A decrypted value the repository also writes in the clear as a word
// (DB_USER "orders" for the Deployment "orders") is not hidden; one it
// does not is, and so is a value with characters no word has.
func TestSeenInClear(t *testing.T) {
	resetRevealed(t)
	reveal("orders")
	reveal("s3cr3t-orders-pw")
	reveal("postgres://orders:pw@db")
	SeenInClear([]byte("kind: Deployment\nmetadata:\n  name: orders\n  # postgres://orders:pw@db is a URL, not a word\n"))
	got := Scrub("deployment.apps/orders uses s3cr3t-orders-pw and postgres://orders:pw@db")
	if got != "deployment.apps/orders uses *** and ***" {
		t.Errorf("Scrub = %q", got)
	}
	reveal("later-word")
	SeenInClear([]byte("later-word"))
	if Scrub("later-word") != "later-word" || !Any() {
		t.Error("a word seen in the clear after it was decrypted is still hidden")
	}
}

// A decrypted value that is kubeplan's own words is not hidden by
// substring: anyone can encrypt to the repository's public key, and
// "to prune" hidden would make a plan that prunes read "3 ***".
func TestRevealedOwnWordsNotScrubbed(t *testing.T) {
	reveal("2 to prune")
	reveal("own-words-canary-5be1")
	got := Scrub("Plan: 0 to add, 0 to change, 2 to prune, 1 unchanged. own-words-canary-5be1")
	if want := "Plan: 0 to add, 0 to change, 2 to prune, 1 unchanged. " + Mask; got != want {
		t.Errorf("Scrub = %q, want %q", got, want)
	}
}
