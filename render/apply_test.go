package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/health"
)

func TestApplyText(t *testing.T) {
	var b bytes.Buffer
	if err := Apply(&b, "text", applyFixture()); err != nil {
		t.Fatal(err)
	}
	want := `namespace/store unchanged
deployment.apps/web configured
configmap/settings created
service/web unchanged
configmap/old pruned
Apply: 1 created, 1 configured, 1 pruned, 2 unchanged.
in sync with 3f2c1e0 price: 2 ` + "`EUR`" + ` <b>
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	// A failed run never says it is in sync.
	failed := applyFixture()
	failed.Err = "boom"
	b.Reset()
	_ = Apply(&b, "text", failed)
	if strings.Contains(b.String(), "in sync with") {
		t.Errorf("failed run: %s", b.String())
	}
}

func TestApplyJSON(t *testing.T) {
	r := applyFixture()
	r.Revision.Time = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	r.Err = "prune failed"
	var b bytes.Buffer
	if err := Apply(&b, "json", r); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Version int `json:"version"`
		Objects []struct {
			Ref struct {
				Kind, Name string
			} `json:"ref"`
			Outcome string `json:"outcome"`
		} `json:"objects"`
		InSync   bool `json:"inSync"`
		Revision struct {
			SHA, Subject, Time string
		} `json:"revision"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != ApplyVersion || len(doc.Objects) != 5 || doc.Objects[1].Outcome != "configured" || doc.Objects[1].Ref.Name != "web" ||
		doc.Revision.SHA != "3f2c1e0aaaa" || doc.Revision.Time != "2026-11-30T12:00:00Z" || doc.Error != "prune failed" {
		t.Errorf("json:\n%s", b.String())
	}
	// Nothing applied yet: objects is an empty list, not null.
	b.Reset()
	_ = Apply(&b, "json", ApplyReport{Err: "lint found 1 error(s)"})
	if !strings.Contains(b.String(), `"objects": []`) || !strings.Contains(b.String(), `"version": 1`) {
		t.Errorf("empty: %s", b.String())
	}
	if err := Apply(&b, "yaml", r); err == nil {
		t.Error("yaml accepted")
	}
}

func statusFixture() *apply.Status {
	return &apply.Status{ApplySet: "configmap/shop", Namespace: "store", Tooling: "kubeplan/v1.2.0",
		Revision: "3f2c1e0aaaa+dirty", AppliedAt: "2026-11-30T10:00:00Z", CheckedAt: "2026-11-30T12:00:00Z",
		Result: "failed", LastError: "lint found 2 error(s)\nsecond line", SecretsSkipped: true,
		Members: []health.Result{{Ref: obj("Deployment", "apps", "web", "").Ref, Status: "InProgress", Message: "1/3 available"}}}
}

func TestStatusText(t *testing.T) {
	var b bytes.Buffer
	if err := Status(&b, "text", statusFixture()); err != nil {
		t.Fatal(err)
	}
	want := `ApplySet:  configmap/shop in namespace store (kubeplan/v1.2.0)
Revision:  3f2c1e0aaaa+dirty
Applied:   2026-11-30T10:00:00Z
Checked:   2026-11-30T12:00:00Z
Result:    failed
Error:     lint found 2 error(s)
           second line
Members:   1
  deployment.apps/web  InProgress  1/3 available
  (Secret members are not listed: status never reads Secrets)
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	_ = Status(&b, "text", &apply.Status{ApplySet: "configmap/shop", Namespace: "store"})
	if !strings.Contains(b.String(), "Revision:  (none recorded)\n") || strings.Contains(b.String(), "Error:") {
		t.Errorf("empty status:\n%s", b.String())
	}
}

func TestStatusJSON(t *testing.T) {
	var b bytes.Buffer
	if err := Status(&b, "json", statusFixture()); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["version"] != float64(StatusVersion) || doc["checkedAt"] != "2026-11-30T12:00:00Z" || doc["result"] != "failed" || doc["secretsSkipped"] != true {
		t.Errorf("json:\n%s", b.String())
	}
}
