package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A story is a list of steps that run in order, sharing one cluster and one
// work directory, like one shell session: it starts in the work directory,
// and a cd stays in effect for the steps after it.
type story struct {
	title string
	intro []string // printed under the title
	steps []step
}

// A step does something (commands, file changes) and then checks the
// cluster: a step without a check is a bug (TestStoriesCheckEveryStep).
type step struct {
	title string
	do    []action
	check check
}

// check is what a step asserts about the cluster (and git) after it ran.
type check struct {
	what string // printed when it holds: "deployment web: 2/2 ready"
	fn   func(ctx context.Context, s *session) error
}

// action is one thing a step does, shown as it happens.
type action struct {
	kind actionKind
	line string   // cmd: the command line, run as shown; cd: the directory
	exit int      // cmd: the exit status it must end with
	want []string // cmd: lines the output must hold (see expand)
	not  []string // cmd: strings the output must not hold
	file string   // write, edit: the file, relative to the current directory
	from string   // edit: the text replaced
	to   string   // write: the content; edit: the replacement
	note string   // write: what the file is
}

type actionKind int

const (
	cmdAction actionKind = iota
	cdAction
	writeAction
	editAction
	startAction // start the cluster (the session does it)
)

// run is a command that must exit 0 and print lines holding want.
func run(line string, want ...string) action {
	return action{kind: cmdAction, line: line, want: want}
}

// fails is a command that must exit with status code and print want.
func fails(code int, line string, want ...string) action {
	return action{kind: cmdAction, line: line, exit: code, want: want}
}

// without adds strings the output of a command must not contain.
func (a action) without(not ...string) action {
	a.not = append(a.not, not...)
	return a
}

func cd(dir string) action { return action{kind: cdAction, line: dir} }

func write(file, note, content string) action {
	return action{kind: writeAction, file: file, note: note, to: content}
}

func edit(file, from, to string) action {
	return action{kind: editAction, file: file, from: from, to: to}
}

// commandLines are the command lines a story shows, in order: the cd and
// command actions as "$ " lines would show them (without the "$ ").
func (st story) commandLines() []string {
	var lines []string
	for _, sp := range st.steps {
		for _, a := range sp.do {
			switch a.kind {
			case cmdAction:
				lines = append(lines, a.line)
			case cdAction:
				lines = append(lines, "cd "+a.line)
			}
		}
	}
	return lines
}

// runStep does a step's actions, then its check.
func (s *session) runStep(ctx context.Context, n int, sp step) error {
	s.p.header(fmt.Sprintf("%d. %s", n, sp.title))
	for _, a := range sp.do {
		if err := s.do(ctx, a); err != nil {
			return fmt.Errorf("step %d (%s): %w", n, sp.title, err)
		}
	}
	if sp.check.fn == nil {
		return fmt.Errorf("step %d (%s) checks nothing", n, sp.title)
	}
	if err := sp.check.fn(ctx, s); err != nil {
		return fmt.Errorf("step %d (%s): check failed: %w", n, sp.title, err)
	}
	s.p.ok(sp.check.what)
	return nil
}

func (s *session) do(ctx context.Context, a action) error {
	switch a.kind {
	case cdAction:
		s.p.command("cd " + a.line)
		s.dir = filepath.Join(s.dir, a.line)
		return nil
	case writeAction:
		s.p.note(fmt.Sprintf("# write %s (%s)", a.file, a.note))
		p := filepath.Join(s.dir, a.file)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, []byte(a.to), 0o644)
	case editAction:
		s.p.note(fmt.Sprintf("# edit %s: %q -> %q", a.file, a.from, a.to))
		p := filepath.Join(s.dir, a.file)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.Count(string(data), a.from) != 1 {
			return fmt.Errorf("edit %s: %q is not in it exactly once", a.file, a.from)
		}
		return os.WriteFile(p, []byte(strings.Replace(string(data), a.from, a.to, 1)), 0o644)
	case startAction:
		return s.startCluster()
	}
	return s.runCommand(ctx, a)
}

// runCommand runs a command action and holds it to its exit status and
// expected output.
func (s *session) runCommand(ctx context.Context, a action) error {
	s.p.command(a.line)
	code, out, err := s.exec(ctx, a.line)
	if err != nil {
		return err
	}
	if code != a.exit {
		return fmt.Errorf("%s: exit status %d, want %d", a.line, code, a.exit)
	}
	for _, w := range a.want {
		w, err := s.expand(w)
		if err != nil {
			return err
		}
		if !strings.Contains(out, w) {
			return fmt.Errorf("%s: the output does not hold %q", a.line, w)
		}
	}
	for _, n := range a.not {
		if strings.Contains(out, n) {
			return fmt.Errorf("%s: the output holds %q", a.line, n)
		}
	}
	return nil
}

// expand replaces {head} with the short hash of HEAD in the current
// directory and {HEAD} with the full one.
func (s *session) expand(w string) (string, error) {
	if !strings.Contains(w, "{head}") && !strings.Contains(w, "{HEAD}") {
		return w, nil
	}
	full, err := s.git("rev-parse", "HEAD")
	if err != nil {
		return "", err
	}
	w = strings.ReplaceAll(w, "{HEAD}", full)
	return strings.ReplaceAll(w, "{head}", full[:7]), nil
}
