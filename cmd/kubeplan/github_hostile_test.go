package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/tools/githubtest"
)

// Text a pull request writes to command the runner, to mention people and
// to forge the plan comment: in values, keys, file and directory names and
// (through the live object) diff context lines.
var hostileValues = []string{
	"::error::forged",
	"  ::add-mask::prune",
	"x ##[error]forged",
	"::stop-commands::abc",
	"@octocat",
	"```",
	"<!-- kubeplan:plan cluster=- namespace=- applyset=- -->",
	"</details>",
}

// writeHostileRepo writes a repository whose file names, keys and values
// hold hostileValues; lint finds errors in it (keys that are not valid
// ConfigMap keys, a list where a string belongs).
func writeHostileRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	sub := filepath.Join(dir, "  ::add-mask::prune")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	var data strings.Builder
	for i, v := range hostileValues {
		b, _ := json.Marshal(v)
		data.WriteString("  v" + string(rune('a'+i)) + ": " + string(b) + "\n")
	}
	files := map[string]string{
		filepath.Join(sub, "x ##[error]forged.yaml"): "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n" +
			"  \"x ##[error]forged @octocat\": [1]\n  \"k\\n::error::forged\\n  ::stop-commands::abc\": [2]\n",
		filepath.Join(dir, "::error::forged.yaml"): "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\ndata: {a: [1]}\n",
		filepath.Join(dir, "values.yaml"):          "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: values}\ndata:\n" + data.String(),
	}
	for name, body := range files {
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// ownCommand is a command line kubeplan writes itself: at the start of the
// line, a known name.
var ownCommand = regexp.MustCompile(`^::(error|warning|notice|add-mask)[ :]`)

// checkRunnerLog fails when the runner would run a command in log that is
// not one of kubeplan's own (an annotation, or a mask of one of masks),
// and returns kubeplan's.
func checkRunnerLog(t *testing.T, what, log string, masks ...string) []string {
	t.Helper()
	cmds := githubtest.RunnerCommands(log)
	for _, c := range cmds {
		if !ownCommand.MatchString(c) {
			t.Errorf("%s: the runner runs %q, which kubeplan did not write", what, c)
			continue
		}
		if data, ok := strings.CutPrefix(c, "::add-mask::"); ok && !slices.Contains(masks, data) {
			t.Errorf("%s: the runner masks %q", what, data)
		}
	}
	return cmds
}

// In GitHub mode no line lint prints, in any format, on stdout or stderr,
// apart or as one pipe, is a command kubeplan did not write; the same
// repository outside GitHub mode shows the attack is real. JSON and XML
// keep their meaning.
func TestGitHubLintHostile(t *testing.T) {
	t.Chdir(writeHostileRepo(t)) // paths as a workflow gives them: relative, so a name starts a line
	dir := "."
	t.Setenv("GITHUB_ACTIONS", "")
	if code, out := runCombined("lint", "-o", "text", dir); code != 1 || !slices.ContainsFunc(githubtest.RunnerCommands(out), func(c string) bool { return strings.HasPrefix(c, "  ::add-mask::prune") }) {
		t.Fatalf("outside GitHub mode: exit %d, and no line is a command, so the repository attacks nothing:\n%s", code, out)
	}

	// --output github alone is GitHub mode too.
	code, out := runCombined("lint", "--output=github", dir)
	if cmds := checkRunnerLog(t, "lint --output=github", out); code != 1 || len(cmds) != 5 {
		t.Errorf("lint --output=github: exit %d, %d commands, want 5 annotations:\n%s", code, len(cmds), out)
	}

	t.Setenv("GITHUB_ACTIONS", "true")
	t.Setenv("GITHUB_STEP_SUMMARY", filepath.Join(t.TempDir(), "summary"))
	t.Setenv("GITHUB_OUTPUT", filepath.Join(t.TempDir(), "output"))
	for _, format := range []string{"github", "text", "json", "sarif", "junit"} {
		code, out := runCombined("lint", "-o", format, dir)
		if code != 1 {
			t.Errorf("-o %s: exit %d, want 1 (lint errors)\n%s", format, code, out)
		}
		cmds := checkRunnerLog(t, "lint -o "+format, out)
		if format == "github" && len(cmds) != 5 {
			t.Errorf("-o github: %d commands, want one error annotation per finding (5):\n%s", len(cmds), out)
		}
		code, stdout, stderr := cli("lint", "-o", format, dir)
		checkRunnerLog(t, "lint -o "+format+" stdout", stdout)
		checkRunnerLog(t, "lint -o "+format+" stderr", stderr)
		switch format {
		case "json", "sarif":
			var v any
			if err := json.Unmarshal([]byte(stdout), &v); err != nil || !strings.Contains(stdout, `##\u005berror]forged`) {
				t.Errorf("-o %s: exit %d, not JSON with the escape (%v):\n%s", format, code, err, stdout)
			}
			var rep struct {
				Findings []struct{ Message string }
			}
			if format == "json" && (json.Unmarshal([]byte(stdout), &rep) != nil || !strings.Contains(rep.Findings[0].Message+rep.Findings[1].Message, "x ##[error]forged")) {
				t.Errorf("-o json: the message does not decode to what lint said:\n%s", stdout)
			}
		case "junit":
			if !strings.Contains(stdout, "##&#91;error]forged") {
				t.Errorf("-o junit: no XML escape:\n%s", stdout)
			}
		case "text":
			if !strings.Contains(stdout, "  %3A:add-mask::prune/x ##%5Berror]forged.yaml:5:3: error") {
				t.Errorf("-o text: not escaped as documented:\n%s", stdout)
			}
		}
	}
}
