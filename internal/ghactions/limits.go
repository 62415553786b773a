package ghactions

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Limits GitHub applies to what a step reports.
const (
	// MaxAnnotations is how many annotations of each level (error,
	// warning, notice) GitHub shows per step; it drops the rest silently.
	MaxAnnotations = 10
	// StepSummaryLimit is the most a step's job summary may hold: 1 MiB.
	// GitHub refuses a larger summary and shows an error instead.
	StepSummaryLimit = 1 << 20
)

// StepSummaryRoom returns how many bytes can still be appended to the file
// named by $GITHUB_STEP_SUMMARY before it reaches StepSummaryLimit. Earlier
// commands of the same step may have written to it already.
func StepSummaryRoom() (int, error) { return OSEnv.StepSummaryRoom() }

// StepSummaryRoom is StepSummaryRoom for the environment e.
func (e Env) StepSummaryRoom() (int, error) {
	path := e(EnvStepSummary)
	if path == "" {
		return 0, fmt.Errorf("$%s is not set (not running in GitHub Actions?)", EnvStepSummary)
	}
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return StepSummaryLimit, nil
	}
	if err != nil {
		return 0, fmt.Errorf("$%s: %w", EnvStepSummary, err)
	}
	return max(0, StepSummaryLimit-int(fi.Size())), nil
}
