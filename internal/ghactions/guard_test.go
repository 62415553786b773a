package ghactions

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/githubtest"
)

// hostileLines are what a pull request can put into a value, a file name or
// a diff context line.
var hostileLines = []string{
	"::error::forged",
	"  ::add-mask::prune",
	"x ##[error]forged",
	"::stop-commands::abc",
	"\t::warning file=a.yaml::forged",
	"::ERROR::forged",
	"\u200b::error::forged",
	":\u200b:error::forged",
	"\u00a0\u3000::error::forged",
	"#\u200b#[error]forged",
	"##\u0301[error]forged",
	"a\r::error::forged",
	"a\r\n  ::error::forged",
	"\x01::error::forged",
	"    ::group::forged",
}

func TestGuardNoCommandInText(t *testing.T) {
	for _, h := range hostileLines {
		// the checker must see the attack when it is written as it is
		if raw := githubtest.RunnerCommands(h + "\n::warning::after\n"); len(raw) == 1 && raw[0] == "::warning::after" {
			t.Errorf("%q unguarded: the checker finds no command (%q)", h, raw)
		}
		var b strings.Builder
		g := NewGuard(&b)
		fmt.Fprintln(g, h)
		if cmds := githubtest.RunnerCommands(b.String()); len(cmds) > 0 {
			t.Errorf("%q written as %q: the runner takes %q", h, b.String(), cmds)
		}
	}
}

func TestGuardText(t *testing.T) {
	for in, want := range map[string]string{
		"plain: text, a::b\n":     "plain: text, a::b\n",
		"  ::error::x\n":          "  %3A:error::x\n",
		"x ##[error]y ##[z]\n":    "x ##%5Berror]y ##%5Bz]\n",
		"# [x] and #[y]\n":        "# [x] and #[y]\n",
		": lone colon\n":          "%3A lone colon\n",
		"a\r:b\n":                 "a\r%3Ab\n",
		"key: value\n  - item:\n": "key: value\n  - item:\n",
	} {
		var b strings.Builder
		if _, err := NewGuard(&b).Write([]byte(in)); err != nil {
			t.Fatal(err)
		}
		if b.String() != want {
			t.Errorf("Guard(%q) = %q, want %q", in, b.String(), want)
		}
	}
}

// A pattern split over writes is still caught, and a character split over
// writes is written whole.
func TestGuardAcrossWrites(t *testing.T) {
	var b strings.Builder
	g := NewGuard(&b)
	for _, p := range []string{"x #", "#", "[error]y\n ", " :", ":error::z\n", "é"[:1], "é"[1:] + "\n"} {
		if n, err := g.Write([]byte(p)); n != len(p) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", p, n, err)
		}
	}
	if want := "x ##%5Berror]y\n  %3A:error::z\né\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

// Own commands go through as they are, on a line of their own, even after
// a partial line; content after them is guarded again.
func TestGuardCommands(t *testing.T) {
	var b strings.Builder
	g := NewGuard(&b)
	fmt.Fprint(g, "Apply? [y/N] ")
	fmt.Fprintln(CommandWriter(g), AddMask("s3cret-value").String())
	fmt.Fprintln(CommandWriter(g), Annotation{Level: LevelWarning, File: "a,b:c.yaml", Title: "drift", Message: "x\n::error::forged ##[error]y"}.String())
	fmt.Fprintln(g, "  ::error::forged")
	want := "Apply? [y/N] \n::add-mask::s3cret-value\n::warning file=a%2Cb%3Ac.yaml,title=drift::x%0A::error::forged ##[error]y\n  %3A:error::forged\n"
	if b.String() != want {
		t.Errorf("got %q\nwant %q", b.String(), want)
	}
	cmds := githubtest.RunnerCommands(b.String())
	if len(cmds) != 2 || !strings.HasPrefix(cmds[0], "::add-mask::") || !strings.HasPrefix(cmds[1], "::warning ") {
		t.Errorf("runner commands %q, want the mask and the warning", cmds)
	}
	var plain strings.Builder
	if CommandWriter(&plain) != &plain {
		t.Error("CommandWriter of a writer that is no Guard is not the writer")
	}
}

// Two streams into one pipe share the line: a partial line on stdout is
// not a line start for stderr.
func TestGuardsMerged(t *testing.T) {
	var b strings.Builder
	out, errw := NewGuards(&b, &b, true)
	fmt.Fprint(errw, "  ")
	fmt.Fprint(out, "")
	fmt.Fprintln(out, "::error::forged")
	fmt.Fprint(out, "partial ")
	fmt.Fprintln(CommandWriter(errw), "::notice::own")
	if cmds := githubtest.RunnerCommands(b.String()); len(cmds) != 1 || cmds[0] != "::notice::own" {
		t.Errorf("%q: runner commands %q, want only the notice", b.String(), cmds)
	}
}

// JSON and XML keep their meaning: the escapes decode to what was written.
func TestGuardDialects(t *testing.T) {
	value := "x ##[error]forged\n  ::add-mask::prune"
	js, _ := json.MarshalIndent(map[string]string{"v": value, "##[k]": "::error::y"}, "", "  ")
	var b strings.Builder
	fmt.Fprintln(NewGuard(&b), string(js))
	if cmds := githubtest.RunnerCommands(b.String()); len(cmds) > 0 {
		t.Errorf("JSON %q: runner commands %q", b.String(), cmds)
	}
	var back map[string]string
	if err := json.Unmarshal([]byte(b.String()), &back); err != nil || back["v"] != value || back["##[k]"] != "::error::y" {
		t.Errorf("JSON changed meaning: %v %q", err, back)
	}

	type doc struct {
		XMLName xml.Name `xml:"testsuite"`
		Name    string   `xml:"name,attr"`
		Text    string   `xml:",chardata"`
	}
	x, _ := xml.Marshal(doc{Name: "##[error]a", Text: "b\n  ::error::forged ##[warning]c"})
	b.Reset()
	fmt.Fprintln(NewGuard(&b), xml.Header+string(x))
	if cmds := githubtest.RunnerCommands(b.String()); len(cmds) > 0 {
		t.Errorf("XML %q: runner commands %q", b.String(), cmds)
	}
	var d doc
	if err := xml.Unmarshal([]byte(b.String()), &d); err != nil || d.Name != "##[error]a" || d.Text != "b\n  ::error::forged ##[warning]c" {
		t.Errorf("XML changed meaning: %v %+v", err, d)
	}
}
