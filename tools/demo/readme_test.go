package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// The README's rules, enforced here so that every command it shows works:
//
//   - A ```sh (bash, shell, console) block says on the line before it how its
//     commands are tested: <!-- tested: HOW[, HOW...] -->, each command by one of
//     readme          this test runs the block, as written, with bash at the module root;
//     .ci/run         the command is a line of .ci/run (CI runs it);
//     demo            the command is `make demo` (TestDemoStory runs it) or one the demo runs;
//     test NAME...    the named Go tests run the command's subcommand with each of its
//                     flags (for examples with placeholders, such as a remote URL).
//   - A ```text block holding "$ " lines is an excerpt of `make demo`'s output:
//     each "$ " command is one the demo runs (checked here), and its lines appear in
//     the demo's real output, in order, contiguous unless a "..." line says lines
//     were left out; "…" in a line stands for any text, and commit hashes and times
//     match any (checked by TestDemoStory). With a <!-- tested: HOW --> line
//     before it, it is an excerpt of that test's run instead, and its "$ "
//     commands are checked as a shell block's are.
//   - A block after <!-- example: examples/PATH --> is that file, byte for byte;
//     test/packaging checks that and runs the file.
//   - Other blocks (yaml, text without "$ ", a command's synopsis) are not commands.

// block is a fenced code block of the README.
type block struct {
	info   string   // the fence's info string: "sh", "text", ...
	marker string   // the HOW of a <!-- tested: HOW --> line right before it
	lines  []string // its content
	line   int      // the line number of its first content line
}

var (
	markerLine  = regexp.MustCompile(`^<!--\s*tested:\s*(.*?)\s*-->$`)
	exampleLine = regexp.MustCompile(`^<!--\s*example:\s*(\S+)\s*-->$`)
)

func readmeBlocks(t *testing.T) []block {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(moduleRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return parseBlocks(string(data))
}

func parseBlocks(text string) []block {
	var blocks []block
	var cur *block
	prev := "" // the last non-blank line outside a block
	for i, l := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(l)
		switch {
		case cur != nil && trimmed == "```":
			blocks = append(blocks, *cur)
			cur, prev = nil, ""
		case cur != nil:
			cur.lines = append(cur.lines, l)
		case strings.HasPrefix(trimmed, "```"):
			cur = &block{info: strings.TrimSpace(strings.TrimPrefix(trimmed, "```")), line: i + 2}
			if m := markerLine.FindStringSubmatch(prev); m != nil {
				cur.marker = m[1]
			} else if m := exampleLine.FindStringSubmatch(prev); m != nil {
				cur.marker = "example " + m[1]
			}
		case trimmed != "":
			prev = trimmed
		}
	}
	return blocks
}

func isShell(info string) bool {
	return slices.Contains([]string{"sh", "bash", "shell", "console"}, info)
}

// commands are a shell block's command lines: continuation lines joined,
// comments and blank lines dropped.
func commands(lines []string) []string {
	var cmds []string
	cur := ""
	for _, l := range lines {
		l = stripComment(l)
		if strings.HasSuffix(strings.TrimSpace(l), "\\") {
			cur += strings.TrimSuffix(strings.TrimSpace(l), "\\") + " "
			continue
		}
		l = strings.Join(strings.Fields(cur+l), " ")
		cur = ""
		if l != "" {
			cmds = append(cmds, l)
		}
	}
	return cmds
}

// stripComment cuts a shell comment (a # starting a word, outside quotes).
func stripComment(l string) string {
	quote := rune(0)
	for i, r := range l {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '#' && (i == 0 || l[i-1] == ' ' || l[i-1] == '\t'):
			return strings.TrimRight(l[:i], " \t")
		}
	}
	return l
}

// demoCommands are the command lines the demo runs, and make demo itself.
func demoCommands() map[string]bool {
	cmds := map[string]bool{"make demo": true}
	for _, st := range stories {
		for _, l := range st.commandLines() {
			cmds[l] = true
		}
	}
	return cmds
}

// TestReadme holds the README to its rules (above) and runs its "readme" blocks.
func TestReadme(t *testing.T) {
	root := moduleRoot(t)
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	ciLines := map[string]bool{}
	for _, l := range strings.Split(string(ci), "\n") {
		ciLines[strings.TrimSpace(stripComment(l))] = true
	}
	demo := demoCommands()
	var run []block
	shell := 0
	for _, b := range readmeBlocks(t) {
		if b.info == "text" && b.marker != "" {
			// An excerpt of a test's run: its commands are the test's.
			hows := strings.Split(b.marker, ",")
			for i := range hows {
				hows[i] = strings.TrimSpace(hows[i])
			}
			for i, l := range b.lines {
				if c, ok := strings.CutPrefix(l, "$ "); ok {
					if why := covered(t, root, strings.TrimSpace(stripComment(c)), hows, ciLines, demo); why != "" {
						t.Errorf("README.md:%d: %q is not run by %s: %s", b.line+i, c, b.marker, why)
					}
				}
			}
			continue
		}
		if b.info == "text" {
			for i, l := range b.lines {
				if c, ok := strings.CutPrefix(l, "$ "); ok && !demo[strings.TrimSpace(stripComment(c))] {
					t.Errorf("README.md:%d: %q is not a command the demo runs; an excerpt's commands must be (see tools/demo/story_*.go)", b.line+i, c)
				}
			}
			continue
		}
		if !isShell(b.info) {
			continue
		}
		shell++
		if b.marker == "" {
			t.Errorf("README.md:%d: a ```%s block must say how it is tested: put <!-- tested: readme|.ci/run|demo|test TestName --> on the line before it (rules in tools/demo/readme_test.go)", b.line-1, b.info)
			continue
		}
		if ex, ok := strings.CutPrefix(b.marker, "example "); ok {
			// A file of examples/, shown byte for byte and run by the tests
			// of test/packaging (TestReadmeSnippetsAreTheExamples).
			if _, err := os.Stat(filepath.Join(root, ex)); err != nil {
				t.Errorf("README.md:%d: the example %s: %v", b.line-1, ex, err)
			}
			continue
		}
		hows := strings.Split(b.marker, ",")
		for i := range hows {
			hows[i] = strings.TrimSpace(hows[i])
		}
		if slices.Contains(hows, "readme") {
			run = append(run, b)
			continue
		}
		for _, c := range commands(b.lines) {
			if why := covered(t, root, c, hows, ciLines, demo); why != "" {
				t.Errorf("README.md:%d: %q is not run by %s: %s", b.line, c, b.marker, why)
			}
		}
	}
	if shell == 0 {
		t.Fatal("no shell blocks found in README.md: is the parser broken?")
	}
	if len(run) == 0 {
		return
	}
	needCluster(t) // the blocks this test runs build and start bin/testcluster
	for _, b := range run {
		t.Run(fmt.Sprintf("line%d", b.line), func(t *testing.T) {
			script := "set -euo pipefail\n" + strings.Join(b.lines, "\n") + "\n"
			cmd := exec.Command("bash", "-c", script)
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "NO_COLOR=1")
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			done := make(chan error, 1)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("README.md:%d: the block failed: %v\n%s", b.line, err, out.String())
				}
			case <-time.After(5 * time.Minute):
				_ = cmd.Process.Kill()
				t.Errorf("README.md:%d: the block did not finish within 5 minutes\n%s", b.line, out.String())
			}
		})
	}
}

// covered says why command c is not run by any of hows ("" when it is).
func covered(t *testing.T, root, c string, hows []string, ciLines, demo map[string]bool) string {
	var why []string
	for _, how := range hows {
		switch name, tests, _ := strings.Cut(how, " "); name {
		case ".ci/run":
			if ciLines[c] {
				return ""
			}
			why = append(why, "not a line of .ci/run")
		case "demo":
			if demo[c] {
				return ""
			}
			why = append(why, "not a command of the demo's stories")
		case "test":
			w := testsRun(t, root, c, strings.Fields(tests))
			if w == "" {
				return ""
			}
			why = append(why, w)
		default:
			why = append(why, fmt.Sprintf("unknown way %q (readme, .ci/run, demo or test NAME...)", how))
		}
	}
	return strings.Join(why, "; ")
}

// testsRun says what of command c (its subcommand, its flags) the named
// tests do not pass to the program ("" when they pass all of it).
func testsRun(t *testing.T, root, c string, names []string) string {
	if len(names) == 0 {
		return "test names no test"
	}
	var src strings.Builder
	for _, name := range names {
		body := testSource(t, root, name)
		if body == "" {
			return fmt.Sprintf("there is no func %s in the module's tests", name)
		}
		src.WriteString(body)
	}
	words, err := splitWords(c)
	if err != nil {
		return err.Error()
	}
	var missing []string
	for i, w := range words {
		flag, _, _ := strings.Cut(w, "=")
		isSub := i == 1 && !strings.HasPrefix(w, "-")
		if (isSub || strings.HasPrefix(w, "-")) && !strings.Contains(src.String(), `"`+flag+`"`) {
			missing = append(missing, flag)
		}
	}
	if len(missing) > 0 {
		return fmt.Sprintf("%s never pass %s", strings.Join(names, ", "), strings.Join(missing, " "))
	}
	return ""
}

// testSource is the source of func name in the module's _test.go files.
func testSource(t *testing.T, root, name string) string {
	var body string
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || body != "" {
			return err
		}
		if d.IsDir() && (d.Name() == "testcluster" || strings.HasPrefix(d.Name(), ".") && p != root) {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s := string(data)
		if i := strings.Index(s, "\nfunc "+name+"("); i >= 0 {
			s = s[i+1:]
			if j := strings.Index(s, "\nfunc "); j >= 0 {
				s = s[:j]
			}
			body = s
		}
		return nil
	})
	return body
}
