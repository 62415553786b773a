package ghview

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/kubeplan/kubeplan/internal/ghactions"
)

// step is what every view shares: the environment, stderr, where
// kubeplan's own workflow commands go on it, and the masks.
type step struct {
	env ghactions.Env
	err io.Writer
	// cmds is stderr's writer for kubeplan's own commands (masks,
	// annotations): when stderr is a ghactions.Guard, everything else
	// written to it is escaped so that no line of it is a command.
	cmds io.Writer
	mask *masker
}

func newStep(env ghactions.Env, stderr io.Writer) step {
	cmds := ghactions.CommandWriter(stderr)
	return step{env: env, err: stderr, cmds: cmds, mask: newMasker(cmds)}
}

// warn writes a ::warning:: annotation to stderr.
func (s step) warn(title, msg string) {
	s.command(ghactions.Annotation{Level: ghactions.LevelWarning, Title: title, Message: msg})
}

// command writes one of kubeplan's annotations.
func (s step) command(a ghactions.Annotation) { fmt.Fprintln(s.cmds, a.String()) }

// summary appends markdown made by render (given the room left in the job
// summary) when $GITHUB_STEP_SUMMARY is set; problems are warnings.
func (s step) summary(title string, render func(w io.Writer, room int) error) {
	if s.env(ghactions.EnvStepSummary) == "" {
		return
	}
	room, err := s.env.StepSummaryRoom()
	if err == nil && room < 1024 {
		err = fmt.Errorf("the job summary is full (GitHub allows %d bytes per step)", ghactions.StepSummaryLimit)
	}
	if err == nil {
		var b strings.Builder
		b.WriteString("\n") // apart from what earlier steps wrote
		if err = render(&b, room-2); err == nil {
			err = s.env.AppendStepSummary(b.String())
		}
	}
	if err != nil {
		s.warn(title, "job summary not written: "+err.Error())
	}
}

// outputs writes name/value pairs to $GITHUB_OUTPUT when it is set.
func (s step) outputs(kv ...string) error {
	if s.env(ghactions.EnvOutput) == "" {
		return nil
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if err := s.env.SetOutput(kv[i], kv[i+1]); err != nil {
			return err
		}
	}
	return nil
}

func boolText(b bool) string { return strconv.FormatBool(b) }
