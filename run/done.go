package run

import "sync"

// doneFunc is Options.Done, called one at a time.
type doneFunc func(ProjectReport)

var doneMu sync.Mutex

func (f doneFunc) call(pr ProjectReport) {
	if f == nil {
		return
	}
	doneMu.Lock()
	defer doneMu.Unlock()
	f(pr)
}
