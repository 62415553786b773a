package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/health"
	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/run"
)

// maxAnnotationMessage caps a diagnosis annotation's message: the
// annotation points at the line, the job summary has the whole diagnosis.
const maxAnnotationMessage = 4096

// ApplyAnnotations are the errors an applied run puts on the manifests in
// GitHub Actions: one per workload whose health wait failed with a
// diagnosis, at the line where the workload is defined (the diagnosis's
// Source, as the plan's annotations name files), titled
// "deployment.apps/web failed: CrashLoopBackOff" (" (stage wave 1)" when
// an ordered run stopped at that stage, "... in PROJECT" in a run over
// many projects), its message the diagnosis as the text view
// writes it (cluster text with control characters escaped, Secret values
// masked by the engine), cut at 4 KiB. The caller writes them with
// Annotation.String, which escapes the message so that no log line can be
// a workflow command. At most ghactions.MaxAnnotations are returned; when
// more were left out, a last notice counts them.
func ApplyAnnotations(r *run.Report) []ghactions.Annotation {
	var out []ghactions.Annotation
	for _, p := range r.Projects {
		if p.Result == nil {
			continue
		}
		stage := apply.FailedStage(p.Err)
		for _, h := range p.Result.Health {
			if h.Diagnosis == nil {
				continue
			}
			a := diagnosisAnnotation(h)
			if stage != "" {
				a.Title += " (stage " + printable(stage) + ")"
			}
			if !r.Single {
				a.Title += " in " + printable(runName(p))
			}
			out = append(out, a)
		}
	}
	if n := len(out) - ghactions.MaxAnnotations; n > 0 {
		what := "workloads were"
		if n == 1 {
			what = "workload was"
		}
		out = append(out[:ghactions.MaxAnnotations], ghactions.Annotation{Level: ghactions.LevelNotice, Title: "kubeplan apply",
			Message: fmt.Sprintf("%d more failed %s not annotated (GitHub shows %d errors per step); the job summary says why each failed.",
				n, what, ghactions.MaxAnnotations)})
	}
	return out
}

// diagnosisAnnotation is one failed workload's error annotation.
func diagnosisAnnotation(h health.Result) ghactions.Annotation {
	d := *h.Diagnosis
	a := ghactions.Annotation{Level: ghactions.LevelError, Title: printable(h.Ref.String()) + " failed: " + printable(health.FailureReason(h))}
	a.File, a.Line, a.Col = splitSource(d.Source)
	d.Source = ""
	var b strings.Builder
	diagnosisText(&b, &d)
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "  ")
	}
	msg := strings.Join(lines, "\n")
	if len(msg) > maxAnnotationMessage {
		msg = cutUTF8(msg, maxAnnotationMessage-len("\n…")) + "\n…"
	}
	if msg == "" {
		msg = printable(h.Message)
	}
	a.Message = msg
	return a
}

// splitSource splits "deploy/web.yaml:10:1" (plan.Source.String) into its
// file, line and column; a source without them is all file.
func splitSource(s string) (file string, line, col int) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, 0, 0
	}
	j := strings.LastIndexByte(s[:i], ':')
	if j < 0 {
		return s, 0, 0
	}
	l, err1 := strconv.Atoi(s[j+1 : i])
	c, err2 := strconv.Atoi(s[i+1:])
	if err1 != nil || err2 != nil {
		return s, 0, 0
	}
	return s[:j], l, c
}
