package run

import (
	"testing"

	"github.com/kubeplan/kubeplan/project"
)

// A run's error names the failed projects, then the skipped ones; a run
// where none failed has none.
func TestReportErr(t *testing.T) {
	r := &Report{Projects: []ProjectReport{
		{Project: project.Project{Name: "a"}, Status: Applied},
		{Project: project.Project{Name: "b"}, Status: Failed},
		{Project: project.Project{Name: "c"}, Status: Skipped},
		{Project: project.Project{Name: "d"}, Status: Failed},
	}}
	if err := r.Err(); err == nil || err.Error() != "2 of 4 projects failed: b, d; 1 skipped: c" {
		t.Errorf("Err() = %v", err)
	}
	r.Projects = r.Projects[:1]
	if err := r.Err(); err != nil {
		t.Errorf("a run where none failed: %v", err)
	}
}
