package run

import (
	"sync"

	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/project"
)

// Observer is told what a run does as it happens: the views of the
// command line (progress lines, GitHub mode) and serve (metrics, Events,
// notifications) watch a run through it.
type Observer interface {
	// Loaded sees every project's objects before anything about them is
	// shown (GitHub mode masks their Secret values).
	Loaded(objs []*manifest.Object)
	// Started is told a project's objects are about to be read, its
	// cluster connected.
	Started(p project.Project)
	// ProjectDone is told each project's report when its part is over.
	// Calls are serialised.
	ProjectDone(pr ProjectReport)
}

// ProgressObserver is an Observer that also follows each project's plan
// as it is made (a progress bar in a terminal).
type ProgressObserver interface {
	Observer
	// Planning is told how many of p's objects are planned so far.
	Planning(p project.Project, done, total int)
}

// Quiet is an Observer that is told nothing; embed it to observe only
// some of a run.
type Quiet struct{}

// Loaded does nothing.
func (Quiet) Loaded([]*manifest.Object) {}

// Started does nothing.
func (Quiet) Started(project.Project) {}

// ProjectDone does nothing.
func (Quiet) ProjectDone(ProjectReport) {}

var doneMu sync.Mutex

// observer is o's Observer, Quiet when none.
func (o *Options) observer() Observer {
	if o.Observer == nil {
		return Quiet{}
	}
	return o.Observer
}

// done tells the observer pr is done, one call at a time.
func (o *Options) done(pr ProjectReport) {
	doneMu.Lock()
	defer doneMu.Unlock()
	o.observer().ProjectDone(pr)
}
