package health

// Reporter receives a wait's progress; render.Progress is its view (a bar
// on a terminal, periodic lines elsewhere). Calls come from one goroutine
// at a time. apply.Progress is the same interface, told apply's phases too.
type Reporter interface {
	// Phase reports that done of total steps of a phase are done:
	// "writing", "pruning", "waiting" (PhaseWaiting, the only one Wait
	// reports). done == total ends the phase.
	Phase(name string, done, total int)
	// Pending names the objects the health wait still waits for, with
	// why, when that set changes and about every 10 s while it does not.
	Pending(pending []Result)
}

// PhaseWaiting is the phase Wait reports to Reporter.Phase.
const PhaseWaiting = "waiting"

// pendingOnly adapts a callback told only the pending objects to Reporter.
type pendingOnly func([]Result)

func (f pendingOnly) Phase(string, int, int)   {}
func (f pendingOnly) Pending(pending []Result) { f(pending) }

// ReporterOf is the Reporter to report to: r, else pending (told only the
// objects still pending), else nil.
func ReporterOf(r Reporter, pending func([]Result)) Reporter {
	switch {
	case r != nil:
		return r
	case pending != nil:
		return pendingOnly(pending)
	}
	return nil
}
