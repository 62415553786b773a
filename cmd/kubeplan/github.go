package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/plan"
)

// GitHub mode is on when GITHUB_ACTIONS=true. Then, besides its normal
// output, a command
//
//   - first registers with ::add-mask:: every token it was given and every
//     Secret value in the manifests (or saved plan) it reads, on stderr,
//     before it prints anything else (the runner reads workflow commands
//     from stdout and stderr alike; stderr keeps the data on stdout clean);
//   - appends a markdown report to $GITHUB_STEP_SUMMARY, cut to stay under
//     GitHub's 1 MiB per step, with a note when cut;
//   - writes step outputs to $GITHUB_OUTPUT.
//
// A failure to write $GITHUB_OUTPUT fails the command: a workflow that
// reads an output (has-changes) must not go on as if it were empty. A
// failure to write the job summary is only a warning.

// githubMode reports whether kubeplan runs as a GitHub Actions step.
func githubMode() bool { return ghactions.InActions() }

// masker registers secrets with the runner once each, on w.
type masker struct {
	w    io.Writer
	seen map[string]bool
	all  []string // every value registered, for Scrub
}

func newMasker(w io.Writer) *masker { return &masker{w: w, seen: map[string]bool{}} }

// add registers values (see ghactions.Masks for what is skipped) that were
// not registered yet.
func (m *masker) add(values ...string) {
	var fresh []string
	for _, v := range ghactions.Masks(values...) {
		if !m.seen[v] {
			m.seen[v] = true
			fresh = append(fresh, v)
		}
	}
	m.all = append(m.all, fresh...)
	_ = ghactions.WriteMasks(m.w, fresh...)
}

// objects registers the Secret values of the manifests.
func (m *masker) objects(objs []*manifest.Object) {
	for _, o := range objs {
		m.add(plan.SecretValues(o.Content)...)
	}
}

// plan registers the Secret values a saved plan carries.
func (m *masker) plan(p *plan.Plan) {
	for _, c := range p.Changes {
		m.add(plan.SecretValues(c.Object)...)
	}
}

// scrub hides every registered value in s, for text the runner does not
// mask (a pull-request comment).
func (m *masker) scrub(s string) string { return ghactions.Scrub(s, m.all...) }

// githubToken is --github-token, else $GITHUB_TOKEN. The flag's default is
// not shown in --help, so the token never is.
func githubToken(flag string) string {
	if flag != "" {
		return flag
	}
	return os.Getenv("GITHUB_TOKEN")
}

// warn writes a ::warning:: annotation to w (stderr) in GitHub mode, and a
// plain "kubeplan: warning: " line otherwise.
func warn(w io.Writer, title, msg string) {
	if githubMode() {
		fmt.Fprintln(w, ghactions.Annotation{Level: ghactions.LevelWarning, Title: title, Message: msg}.String())
		return
	}
	fmt.Fprintln(w, "kubeplan: warning: "+msg)
}

// stepSummary appends markdown made by render (given the room left in the
// job summary) when $GITHUB_STEP_SUMMARY is set; problems are warnings.
func stepSummary(s streams, title string, render func(w io.Writer, room int) error) {
	if os.Getenv(ghactions.EnvStepSummary) == "" {
		return
	}
	room, err := ghactions.StepSummaryRoom()
	if err == nil && room < 1024 {
		err = fmt.Errorf("the job summary is full (GitHub allows %d bytes per step)", ghactions.StepSummaryLimit)
	}
	if err == nil {
		var b strings.Builder
		b.WriteString("\n") // apart from what earlier steps wrote
		if err = render(&b, room-2); err == nil {
			err = ghactions.AppendStepSummary(b.String())
		}
	}
	if err != nil {
		warn(s.err, title, "job summary not written: "+err.Error())
	}
}

// stepOutputs writes name/value pairs to $GITHUB_OUTPUT when it is set.
func stepOutputs(kv ...string) error {
	if os.Getenv(ghactions.EnvOutput) == "" {
		return nil
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if err := ghactions.SetOutput(kv[i], kv[i+1]); err != nil {
			return err
		}
	}
	return nil
}

func boolText(b bool) string { return strconv.FormatBool(b) }
