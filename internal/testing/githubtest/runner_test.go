package githubtest

import (
	"slices"
	"testing"
)

func TestRunnerCommands(t *testing.T) {
	log := "plain\n" +
		"  ::error file=a::x\n" +
		"y ##[warning]z\r" +
		"##[nothing\n" +
		"::add-mask::\u200bsecret\n" +
		"::stop-commands::T0k\n" +
		"::error::hidden\n" +
		"x ##[error]hidden\n" +
		"::t0K::\n" +
		"\u200b::notice::after\n" +
		":: not a command\n"
	want := []string{"  ::error file=a::x", "y ##[warning]z", "::add-mask::\u200bsecret", "\u200b::notice::after"}
	if got := RunnerCommands(log); !slices.Equal(got, want) {
		t.Errorf("RunnerCommands = %q, want %q", got, want)
	}
	if got := RunnerCommands("::stop-commands::abc\n::error::hidden for ever\n"); len(got) != 0 {
		t.Errorf("after a stop that is never resumed: %q", got)
	}
}
