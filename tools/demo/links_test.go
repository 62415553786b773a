package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// mdLink is an inline Markdown link or image: [text](target) or
// [text](target "title").
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// unfenced is a document's lines with those of fenced code blocks blanked.
func unfenced(text string) []string {
	var lines []string
	fenced := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
			l = ""
		}
		if fenced {
			l = ""
		}
		lines = append(lines, l)
	}
	return lines
}

var codeSpan = regexp.MustCompile("`[^`]*`")

// prose is a document's text outside fenced code blocks and code spans,
// where a link is a link.
func prose(text string) []string {
	lines := unfenced(text)
	for i, l := range lines {
		lines[i] = codeSpan.ReplaceAllString(l, "``")
	}
	return lines
}

// heading is an ATX heading line.
var heading = regexp.MustCompile(`^#{1,6}\s+(.+?)\s*$`)

// anchors are the fragments GitHub gives a document's headings: lower case,
// punctuation dropped, spaces as hyphens, a repeated one suffixed -1, -2, ...
func anchors(text string) map[string]bool {
	seen := map[string]int{}
	out := map[string]bool{}
	for _, l := range unfenced(text) {
		m := heading.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		slug := slugify(m[1])
		if n := seen[slug]; n > 0 {
			out[slug+"-"+itoa(n)] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	}
	return out
}

func slugify(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// TestDocumentLinks: every relative link of README.md and docs/*.md leads to
// a file or directory of the repository, and a link's #fragment to a heading
// of the Markdown document it names (its own document for a bare #fragment).
func TestDocumentLinks(t *testing.T) {
	root := moduleRoot(t)
	texts := map[string]string{}
	read := func(rel string) (string, bool) {
		if s, ok := texts[rel]; ok {
			return s, true
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return "", false
		}
		texts[rel] = string(data)
		return texts[rel], true
	}
	checked := 0
	for _, doc := range documents(t) {
		text, ok := read(doc)
		if !ok {
			t.Fatalf("%s: unreadable", doc)
		}
		for i, l := range prose(text) {
			for _, m := range mdLink.FindAllStringSubmatch(l, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				checked++
				path, frag, _ := strings.Cut(target, "#")
				rel := doc
				if path != "" {
					rel = filepath.ToSlash(filepath.Join(filepath.Dir(doc), path))
					if rel == ".." || strings.HasPrefix(rel, "../") || filepath.IsAbs(path) {
						t.Errorf("%s:%d: link %s leads out of the repository", doc, i+1, target)
						continue
					}
					if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
						t.Errorf("%s:%d: link %s: %s does not exist", doc, i+1, target, rel)
						continue
					}
				}
				if frag == "" {
					continue
				}
				if !strings.HasSuffix(rel, ".md") {
					t.Errorf("%s:%d: link %s: a #fragment of %s, which is not a Markdown document", doc, i+1, target, rel)
					continue
				}
				body, _ := read(rel)
				if !anchors(body)[frag] {
					t.Errorf("%s:%d: link %s: %s has no heading #%s", doc, i+1, target, rel, frag)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no relative links found: is the parser broken?")
	}
}

// TestAnchorsAndLinks pins the parser: GitHub's fragments, repeated
// headings, links in code left alone.
func TestAnchorsAndLinks(t *testing.T) {
	doc := "# `kubeplan lint`\n## Secrets in git: SOPS, sealed and external secrets\n## Many projects\n## Many projects\n" +
		"```sh\n# not a heading\n[x](nowhere.md)\n```\nsee `[y](nowhere.md)` and [z](docs/a.md#b \"t\")\n"
	got := anchors(doc)
	for _, want := range []string{"kubeplan-lint", "secrets-in-git-sops-sealed-and-external-secrets", "many-projects", "many-projects-1"} {
		if !got[want] {
			t.Errorf("no anchor %q in %v", want, got)
		}
	}
	if got["not-a-heading"] {
		t.Error("a comment in a code block counted as a heading")
	}
	var links []string
	for _, l := range prose(doc) {
		for _, m := range mdLink.FindAllStringSubmatch(l, -1) {
			links = append(links, m[1])
		}
	}
	if len(links) != 1 || links[0] != "docs/a.md#b" {
		t.Errorf("links %q, want only docs/a.md#b", links)
	}
}

// TestDocsIndex: docs/README.md, the index of the reference, links every
// page of docs/, so a new page cannot be left out of it.
func TestDocsIndex(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(moduleRoot(t), "docs", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	linked := map[string]bool{}
	for _, l := range prose(string(data)) {
		for _, m := range mdLink.FindAllStringSubmatch(l, -1) {
			path, _, _ := strings.Cut(m[1], "#")
			linked[path] = true
		}
	}
	for _, doc := range documents(t) {
		page, ok := strings.CutPrefix(doc, "docs/")
		if ok && page != "README.md" && !linked[page] {
			t.Errorf("docs/README.md does not link %s", doc)
		}
	}
}
