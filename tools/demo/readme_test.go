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

// The rules of README.md and of every page of docs/ (the documents), enforced
// here so that every command they show works:
//
//   - A ```sh (bash, shell, console) block says on the line before it how its
//     commands are tested: <!-- tested: HOW[, HOW...] -->, each command by one of
//     readme          this test runs the block, as written, with bash at the module root;
//     .ci/run         the command is a line of .ci/run (CI runs it);
//     demo            the command is `make demo` (TestDemoStory runs it) or one the demo runs;
//     test NAME...    the named Go tests run the command's subcommand with each of its
//                     flags (for examples with placeholders, such as a remote URL);
//                     TestScripts/NAME names the txtar script testdata/script/NAME.txtar,
//                     whose kubeplan lines must hold the subcommand and each flag.
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

// block is a fenced code block of a document.
type block struct {
	file   string   // the document, relative to the module root: README.md, docs/lint.md
	info   string   // the fence's info string: "sh", "text", ...
	marker string   // the HOW of a <!-- tested: HOW --> line right before it
	lines  []string // its content
	line   int      // the line number of its first content line
}

var (
	markerLine  = regexp.MustCompile(`^<!--\s*tested:\s*(.*?)\s*-->$`)
	exampleLine = regexp.MustCompile(`^<!--\s*example:\s*(\S+)\s*-->$`)
)

// documents are README.md and the pages of docs/, relative to the module root.
func documents(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join(moduleRoot(t), "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	docs := []string{"README.md"}
	for _, p := range pages {
		docs = append(docs, filepath.ToSlash(filepath.Join("docs", filepath.Base(p))))
	}
	return docs
}

// docBlocks are the fenced code blocks of every document.
func docBlocks(t *testing.T) []block {
	t.Helper()
	var blocks []block
	for _, doc := range documents(t) {
		data, err := os.ReadFile(filepath.Join(moduleRoot(t), doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range parseBlocks(string(data)) {
			b.file = doc
			blocks = append(blocks, b)
		}
	}
	return blocks
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

// TestReadme holds README.md and docs/*.md to their rules (above) and runs
// their "readme" blocks.
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
	for _, b := range docBlocks(t) {
		if b.info == "text" && b.marker != "" {
			// An excerpt of a test's run: its commands are the test's.
			hows := strings.Split(b.marker, ",")
			for i := range hows {
				hows[i] = strings.TrimSpace(hows[i])
			}
			for i, l := range b.lines {
				if c, ok := strings.CutPrefix(l, "$ "); ok {
					if why := covered(t, root, strings.TrimSpace(stripComment(c)), hows, ciLines, demo); why != "" {
						t.Errorf("%s:%d: %q is not run by %s: %s", b.file, b.line+i, c, b.marker, why)
					}
				}
			}
			continue
		}
		if b.info == "text" {
			for i, l := range b.lines {
				if c, ok := strings.CutPrefix(l, "$ "); ok && !demo[strings.TrimSpace(stripComment(c))] {
					t.Errorf("%s:%d: %q is not a command the demo runs; an excerpt's commands must be (see tools/demo/story_*.go)", b.file, b.line+i, c)
				}
			}
			continue
		}
		if !isShell(b.info) {
			continue
		}
		shell++
		if b.marker == "" {
			t.Errorf("%s:%d: a ```%s block must say how it is tested: put <!-- tested: readme|.ci/run|demo|test TestName --> on the line before it (rules in tools/demo/readme_test.go)", b.file, b.line-1, b.info)
			continue
		}
		if ex, ok := strings.CutPrefix(b.marker, "example "); ok {
			// A file of examples/, shown byte for byte and run by the tests
			// of test/packaging (TestReadmeSnippetsAreTheExamples).
			if _, err := os.Stat(filepath.Join(root, ex)); err != nil {
				t.Errorf("%s:%d: the example %s: %v", b.file, b.line-1, ex, err)
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
				t.Errorf("%s:%d: %q is not run by %s: %s", b.file, b.line, c, b.marker, why)
			}
		}
	}
	if shell == 0 {
		t.Fatal("no shell blocks found in README.md and docs/: is the parser broken?")
	}
	if len(run) == 0 {
		return
	}
	needCluster(t) // the blocks this test runs build and start bin/testcluster
	for _, b := range run {
		t.Run(fmt.Sprintf("%s:%d", b.file, b.line), func(t *testing.T) {
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
					t.Errorf("%s:%d: the block failed: %v\n%s", b.file, b.line, err, out.String())
				}
			case <-time.After(5 * time.Minute):
				_ = cmd.Process.Kill()
				t.Errorf("%s:%d: the block did not finish within 5 minutes\n%s", b.file, b.line, out.String())
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
// tests do not pass to the program ("" when they pass all of it). Leading
// VAR=value words are the command's environment: the tests must name VAR.
func testsRun(t *testing.T, root, c string, names []string) string {
	if len(names) == 0 {
		return "test names no test"
	}
	words, err := splitWords(c)
	if err != nil {
		return err.Error()
	}
	var env []string
	for len(words) > 0 && envWord.MatchString(words[0]) {
		name, _, _ := strings.Cut(words[0], "=")
		env = append(env, name)
		words = words[1:]
	}
	var goSrc strings.Builder
	scriptWords := map[string]bool{}
	for _, name := range names {
		if script, ok := strings.CutPrefix(name, "TestScripts/"); ok {
			ws := scriptKubeplanWords(root, script)
			if ws == nil {
				return fmt.Sprintf("there is no script testdata/script/%s.txtar", script)
			}
			for w := range ws {
				scriptWords[w] = true
			}
			continue
		}
		body := testSource(t, root, name)
		if body == "" {
			return fmt.Sprintf("there is no func %s in the module's tests", name)
		}
		goSrc.WriteString(body)
	}
	passed := func(w string) bool {
		return scriptWords[w] || strings.Contains(goSrc.String(), `"`+w+`"`)
	}
	var missing []string
	for _, name := range env {
		if !passed(name) {
			missing = append(missing, name)
		}
	}
	for i, w := range words {
		flag, _, _ := strings.Cut(w, "=")
		isSub := i == 1 && !strings.HasPrefix(w, "-")
		if (isSub || strings.HasPrefix(w, "-")) && !passed(flag) {
			missing = append(missing, flag)
		}
	}
	if len(missing) > 0 {
		return fmt.Sprintf("%s never pass %s", strings.Join(names, ", "), strings.Join(missing, " "))
	}
	return ""
}

// envWord is a shell word that sets a variable for the command after it.
var envWord = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// scriptKubeplanWords are the words a txtar script passes to kubeplan: the
// words of its kubeplan command lines (flags cut at "="), and the names of
// the variables its env lines set. It is nil when there is no such script.
func scriptKubeplanWords(root, name string) map[string]bool {
	if strings.ContainsAny(name, `/\`) || strings.HasPrefix(name, ".") {
		return nil
	}
	data, err := os.ReadFile(filepath.Join(root, "testdata", "script", name+".txtar"))
	if err != nil {
		return nil
	}
	words := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "-- ") {
			break // the script ends where its files begin
		}
		fields := strings.Fields(stripComment(l))
		for len(fields) > 0 && (fields[0] == "!" || fields[0] == "exec" || fields[0] == "exitcode" || strings.HasPrefix(fields[0], "[")) {
			if fields[0] == "exitcode" && len(fields) > 1 {
				fields = fields[1:]
			}
			fields = fields[1:]
		}
		switch {
		case len(fields) >= 2 && fields[0] == "env":
			name, _, _ := strings.Cut(fields[1], "=")
			words[name] = true
		case len(fields) >= 1 && fields[0] == "kubeplan":
			for _, f := range fields[1:] {
				flag, _, _ := strings.Cut(strings.Trim(f, `'"`), "=")
				words[flag] = true
			}
		}
	}
	return words
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

// makeCommand is a `make TARGET` in a block's line.
var makeCommand = regexp.MustCompile(`(?:^|[\s;&|(])make\s+([A-Za-z0-9_.-]+)`)

// TestDocumentMakeTargets: every `make TARGET` a shell or text block of
// README.md or docs/*.md shows (a ```text one such as `make image` too) is a
// target of the Makefile, so no document names a command that is gone.
func TestDocumentMakeTargets(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(moduleRoot(t), "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	targets := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^([A-Za-z0-9_.-]+):`).FindAllStringSubmatch(string(data), -1) {
		targets[m[1]] = true
	}
	n := 0
	for _, b := range docBlocks(t) {
		if !isShell(b.info) && b.info != "text" {
			continue
		}
		for i, l := range b.lines {
			for _, m := range makeCommand.FindAllStringSubmatch(stripComment(l), -1) {
				n++
				if !targets[m[1]] {
					t.Errorf("%s:%d: make %s: the Makefile has no target %s", b.file, b.line+i, m[1], m[1])
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no make command in any document: is the parser broken?")
	}
}
