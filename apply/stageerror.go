package apply

import (
	"errors"
	"fmt"
)

// StageError is a run that stopped at a stage of an ordered apply (see
// docs/ordering.md): the stage did not apply or did not become healthy.
// The stages after it were not run; the SyncFail hooks were (OnFail says
// how they went).
type StageError struct {
	// Stage is the stage's name: "wave 1", "PreSync hooks".
	Stage string
	// OnFail is what running the SyncFail hooks gave: nil when they
	// succeeded or there are none.
	OnFail error
	Err    error
}

func (e *StageError) Error() string {
	msg := fmt.Sprintf("stage %q failed, the stages after it were not run: %v", e.Stage, e.Err)
	if e.OnFail != nil {
		msg += fmt.Sprintf("; the SyncFail hooks failed too: %v", e.OnFail)
	}
	return msg
}

func (e *StageError) Unwrap() error { return e.Err }

// FailedStage is the name of the stage err stopped a run at, "" when err
// is not a stage's failure (a run without stages, or a failure before
// the first stage).
func FailedStage(err error) string {
	var se *StageError
	if errors.As(err, &se) {
		return se.Stage
	}
	return ""
}
