package main

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/arguments"
)

// Building the command tree reads no help text (kubeplan starts for one
// command and shows at most one help), and each command's --help still
// shows its whole text and examples.
func TestHelpIsReadOnlyWhenShown(t *testing.T) {
	s := streams{out: io.Discard, err: io.Discard, getenv: func(string) string { return "" }}
	var withText []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if _, ok := c.Annotations[helpAnnotation]; ok {
			withText = append(withText, c)
			if c.Long != "" || c.Example != "" {
				t.Errorf("%s: help text read when the tree was built", c.CommandPath())
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRoot(s))
	if len(withText) < 14 { // root and every verb with a help/VERB.txt
		t.Fatalf("only %d commands have a help text", len(withText))
	}
	for _, c := range withText {
		verb := c.Annotations[helpAnnotation]
		args := append(strings.Fields(strings.TrimPrefix(c.CommandPath(), "kubeplan")), "--help")
		var out bytes.Buffer
		if code := Main(args, streams{out: &out, err: io.Discard, getenv: func(string) string { return "" }}); code != exitOK {
			t.Errorf("kubeplan %s: exit %d", strings.Join(args, " "), code)
		}
		if !strings.Contains(out.String(), arguments.Help(verb)) {
			t.Errorf("kubeplan %s does not show help/%s.txt:\n%s", strings.Join(args, " "), verb, out.String())
		}
		if _, ok := c.Annotations[exampleAnnotation]; ok && !strings.Contains(out.String(), arguments.Example(verb)) {
			t.Errorf("kubeplan %s does not show help/%s.example.txt", strings.Join(args, " "), verb)
		}
	}
}
