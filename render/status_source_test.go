package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/run"
)

// TestStatusSourceFailing: a parent recording that serve's git source
// fails shows it, under the last revision applied, in text (control
// characters escaped) and JSON, and kubeplan status over projects lists
// the project among those that need a look although its last run
// succeeded; without the record nothing changes.
func TestStatusSourceFailing(t *testing.T) {
	st := &apply.Status{ApplySet: "configmap/app-set", Namespace: "shop", Tooling: "kubeplan/v1", Revision: "0123456789abcdef",
		Result: "ok", SourceFailing: &apply.SourceFailing{Since: "2026-12-02T10:00:00Z", Reason: "auth", Message: "git source https://***@git.example.com/x.git: authentication failed\x1b[31m"}}
	var b bytes.Buffer
	if err := Status(&b, "text", st); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	rev, src := strings.Index(out, "Revision:"), strings.Index(out, "Source failing:  since 2026-12-02T10:00:00Z (auth): git source https://***@git.example.com/x.git: authentication failed\\x1b[31m\n")
	if rev < 0 || src < rev || strings.Contains(out, "\x1b") {
		t.Errorf("text:\n%s", out)
	}
	b.Reset()
	if err := Status(&b, "json", st); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		SourceFailing *apply.SourceFailing `json:"sourceFailing"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil || doc.SourceFailing == nil || doc.SourceFailing.Reason != "auth" {
		t.Errorf("json (%v): %s", err, b.String())
	}

	members := func(st *apply.Status) *run.Report {
		return &run.Report{Projects: []run.ProjectReport{{Project: project.Project{Name: "app"}, Status: run.Applied, Namespace: "shop", ApplySet: st.ApplySet, Health: st}}}
	}
	b.Reset()
	if err := RunStatus(&b, "text", members(st)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "1 of 1 project need") || strings.Count(b.String(), "Source failing:") != 1 {
		t.Errorf("run status:\n%s", b.String())
	}
	st.SourceFailing = nil
	b.Reset()
	if err := RunStatus(&b, "text", members(st)); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "need a look") || strings.Contains(b.String(), "Source failing") {
		t.Errorf("run status without the record:\n%s", b.String())
	}
	if got := SourceEventNote("0123456789", time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC), "", nil); got != "git source fetched again (it failed since 2026-12-02T10:00:00Z), at revision 0123456" {
		t.Errorf("recovery note %q", got)
	}
}
