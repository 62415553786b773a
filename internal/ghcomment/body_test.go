package ghcomment

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestMarker(t *testing.T) {
	for _, c := range []struct{ cl, ns, as, want string }{
		{"prod", "store", "configmap/gitops-applyset", "<!-- kubeplan:plan cluster=prod namespace=store applyset=configmap/gitops-applyset -->"},
		{"", "store", "", "<!-- kubeplan:plan cluster=- namespace=store applyset=- -->"},
		{"", "", "", "<!-- kubeplan:plan cluster=- namespace=- applyset=- -->"},
		{"kind-a b", "a b", "x-->y>", "<!-- kubeplan:plan cluster=kind-a_b namespace=a_b applyset=x__>y_ -->"},
	} {
		got := Marker(c.cl, c.ns, c.as)
		if got != c.want {
			t.Errorf("Marker(%q, %q, %q) = %q, want %q", c.cl, c.ns, c.as, got, c.want)
		}
		if strings.Count(got, "-->") != 1 || !strings.HasSuffix(got, " -->") {
			t.Errorf("Marker(%q, %q, %q) = %q can end the HTML comment early", c.cl, c.ns, c.as, got)
		}
	}
}

func TestScopeMarker(t *testing.T) {
	for scope, want := range map[string]string{
		"acme/shop:kubeplan.yaml":         "<!-- kubeplan:plan scope=acme/shop:kubeplan.yaml -->",
		"acme/shop:kubeplan.yaml staging": "<!-- kubeplan:plan scope=acme/shop:kubeplan.yaml_staging -->",
		"":                                "<!-- kubeplan:plan scope=- -->",
		"x-->\n<b>":                       "<!-- kubeplan:plan scope=x__>_<b_ -->",
	} {
		got := ScopeMarker(scope)
		if got != want {
			t.Errorf("ScopeMarker(%q) = %q, want %q", scope, got, want)
		}
		if strings.Count(got, "-->") != 1 || !strings.HasSuffix(got, " -->") || strings.ContainsAny(got, "\n\r") {
			t.Errorf("ScopeMarker(%q) = %q can end the HTML comment or its line early", scope, got)
		}
	}
	// A run's comment is never a single set's, whatever their values.
	if m := ScopeMarker("prod"); HasMarker(Marker("prod", "", "")+"\n", m) || HasMarker(m+"\n", Marker("prod", "", "")) {
		t.Error("a scope marker and a set marker match each other")
	}
}

func TestHasMarker(t *testing.T) {
	m := Marker("prod", "store", "configmap/a")
	for body, want := range map[string]bool{
		m + "\n### plan":     true,
		m:                    true,
		"\n  " + m + "\r\nx": true,
		m + "  \nx":          true,
		// Another ApplySet whose name starts the same: not ours.
		Marker("prod", "store", "configmap/ab") + "\n": false,
		Marker("prod", "shop", "configmap/a") + "\n":   false,
		// The same set on another cluster: not ours either.
		Marker("staging", "store", "configmap/a") + "\n": false,
		// Someone quoting or mentioning the marker later in a comment.
		"> " + m + "\n":            false,
		"see\n" + m + "\n":         false,
		"```\n" + m + "\n```\n":    false,
		"":                         false,
		strings.TrimSuffix(m, ">"): false,
	} {
		if got := HasMarker(body, m); got != want {
			t.Errorf("HasMarker(%q) = %v, want %v", body, got, want)
		}
	}
}

func TestBodyShort(t *testing.T) {
	m := Marker("prod", "store", "-")
	if got := Body(m, "### plan\n", "https://x/run"); got != m+"\n### plan\n" {
		t.Errorf("short body changed: %q", got)
	}
	// Exactly at the limit, counted in characters: kept whole.
	md := strings.Repeat("é", MaxChars-utf8.RuneCountInString(m)-1)
	if got := Body(m, md, ""); got != m+"\n"+md {
		t.Errorf("body of exactly %d characters was cut", MaxChars)
	}
}

func TestBodyCut(t *testing.T) {
	m := Marker("prod", "store", "configmap/gitops-applyset")
	var b strings.Builder
	b.WriteString("### kubeplan plan\n\n")
	for i := 0; utf8.RuneCountInString(b.String()) < 2*MaxChars; i++ {
		// Multi-byte characters: the limit counts characters, not bytes.
		b.WriteString("<details><summary>~ update configmap/ü" + strings.Repeat("x", i%7) + "</summary>\n\n```diff\n")
		for range 20 {
			b.WriteString("+  key: välue ✓\n")
		}
		b.WriteString("```\n\n</details>\n")
	}
	md := b.String()
	url := "https://github.com/o/r/actions/runs/42"
	got := Body(m, md, url)
	n := utf8.RuneCountInString(got)
	if n > MaxChars || n < MaxChars-2000 {
		t.Fatalf("cut body has %d characters, want at most %d and not much less", n, MaxChars)
	}
	if !utf8.ValidString(got) {
		t.Fatal("cut body is not valid UTF-8")
	}
	if !HasMarker(got, m) {
		t.Error("cut body lost its marker")
	}
	note := "> ⚠️ Cut to stay under GitHub's 65,536-character limit for comments; the full plan is in [the job summary](" + url + ").\n"
	if !strings.HasSuffix(got, note) {
		t.Errorf("cut body does not end with the note:\n%s", got[len(got)-300:])
	}
	kept := strings.TrimSuffix(strings.TrimPrefix(got, m+"\n"), "\n"+note)
	// Cut at a line boundary, and every block the cut opened is closed, so
	// the note is shown as text.
	cut := len(kept)
	for cut > 0 && !strings.HasPrefix(md, kept[:cut]) {
		cut--
	}
	if cut == 0 || kept[cut-1] != '\n' || kept[cut:] != closeOpen(kept[:cut]) {
		t.Errorf("kept text is not whole lines of the plan plus what closes its open blocks: %q", kept[max(0, cut-200):])
	}
	if kept[cut:] == "" {
		t.Error("the fixture should be cut inside a diff block")
	}
	if strings.Count(kept, "```")%2 != 0 {
		t.Errorf("a code fence is left open:\n%s", kept[len(kept)-400:])
	}
	if strings.Count(kept, "<details>") != strings.Count(kept, "</details>") {
		t.Errorf("a <details> block is left open:\n%s", kept[len(kept)-400:])
	}
	// Without a run URL the note still names the job summary.
	if got := Body(m, md, ""); !strings.HasSuffix(got, "the full plan is in the job summary.\n") {
		t.Errorf("note without URL: %q", got[len(got)-120:])
	}
}

func TestCloseOpen(t *testing.T) {
	for in, want := range map[string]string{
		"text\n":                                "",
		"```diff\n+a\n":                         "```\n",
		"````diff\n```\n":                       "````\n",
		"<details>\n\n```diff\n+a\n```\n":       "\n</details>\n",
		"<details>\n\n```diff\n+<details>\n":    "```\n\n</details>\n",
		"<details>\nx\n</details>\n<details>\n": "\n</details>\n",
	} {
		if got := closeOpen(in); got != want {
			t.Errorf("closeOpen(%q) = %q, want %q", in, got, want)
		}
	}
}
