package notify

// Failure is one workload of a failed run whose health wait found it
// failed or not healthy in time: what a notification says of it. serve
// makes it from the run's diagnosis (Secret values masked there); the
// notifier scrubs its texts again, as it does the error's.
type Failure struct {
	// Workload is the object as kubectl names it: "deployment.apps/web".
	Workload  string `json:"workload"`
	Namespace string `json:"namespace,omitempty"`
	// Reason is the main reason: "CrashLoopBackOff", "ImagePullBackOff",
	// "FailedScheduling", or the wait's status when the pods showed none.
	Reason string `json:"reason"`
	// Source is where the workload is defined: "deploy/web.yaml:3:1".
	Source string `json:"source,omitempty"`
	// Summary is one line for people: "deployment.apps/web:
	// CrashLoopBackOff: container main exit code 1 (2 pods)".
	Summary string `json:"summary"`
	// Stage is the stage of an ordered run (docs/ordering.md) the
	// workload failed in, where the run stopped: "wave 1"; "" for a run
	// without stages.
	Stage string `json:"stage,omitempty"`
}

// maxFailures is how many failures a notification carries; the rest are
// counted in the error's text.
const maxFailures = 10

// maxFailureText caps each text of a Failure, in characters.
const maxFailureText = 300

// scrubFailures is fs scrubbed and capped: at most maxFailures, each text
// at most maxFailureText characters.
func (n *Notifier) scrubFailures(fs []Failure) []Failure {
	if len(fs) == 0 {
		return nil
	}
	out := make([]Failure, 0, min(len(fs), maxFailures))
	for _, f := range fs[:min(len(fs), maxFailures)] {
		clean := func(s string) string { return truncate(n.scrub(s), maxFailureText) }
		out = append(out, Failure{Workload: clean(f.Workload), Namespace: clean(f.Namespace), Reason: clean(f.Reason),
			Source: clean(f.Source), Summary: clean(f.Summary), Stage: clean(f.Stage)})
	}
	return out
}
