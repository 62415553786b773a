package mutations

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/yannh/kubeconform/pkg/resource"
	"github.com/yannh/kubeconform/pkg/validator"

	"github.com/kubeplan/kubeplan/internal/kubeapi"
	"github.com/kubeplan/kubeplan/lint"
)

// fileName is the file mutation id is written to.
func fileName(id int) string { return fmt.Sprintf("m%05d.json", id) }

// WriteFiles writes each mutation to dir as fileName(ID), indented JSON.
func WriteFiles(dir string, ms []Mutation) error {
	for _, m := range ms {
		b, err := json.MarshalIndent(m.Object, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, fileName(m.ID)), append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// LintVerdicts lints the files WriteFiles wrote, in one run of lint.Check
// (as kubeplan lint dir does), with the policies off: they are opinions,
// not the API server's rules. A mutation is rejected when lint reports an
// error finding in its file.
func LintVerdicts(dir string, ms []Mutation) ([]Verdict, error) {
	rules := map[string]lint.RuleSetting{}
	for _, r := range lint.Rules() {
		if r.Policy {
			rules[r.ID] = lint.RuleSetting{Off: true}
		}
	}
	rep, _, err := lint.Check(lint.Input{Paths: []string{dir}}, lint.Options{Rules: rules})
	if err != nil {
		return nil, err
	}
	out := make([]Verdict, len(ms))
	for _, f := range rep.Errors() {
		id, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f.File), "m"), ".json"))
		if err != nil || id < 0 || id >= len(ms) {
			return nil, fmt.Errorf("a finding in an unexpected file: %s:%d:%d %s", f.File, f.Line, f.Col, f.Message)
		}
		if !out[id].Rejected {
			out[id] = Verdict{Rejected: true, Message: fmt.Sprintf("%d:%d [%s] %s", f.Line, f.Col, f.Rule, f.Message)}
		}
	}
	return out, nil
}

// KubeconformVerdicts validates each mutation with kubeconform v0.8.0's
// validator (the library its CLI runs) in strict mode, offline, against
// the schemas kubeplan embeds (kubeapi.Dir, as tools/benchlint runs it).
// Invalid and Error results are rejections.
func KubeconformVerdicts(ms []Mutation) ([]Verdict, error) {
	dir, err := kubeapi.Dir()
	if err != nil {
		return nil, err
	}
	v, err := validator.New([]string{filepath.Join(dir, kubeapi.FileTemplate)}, validator.Opts{Strict: true})
	if err != nil {
		return nil, err
	}
	out := make([]Verdict, len(ms))
	for i, m := range ms {
		b, err := json.Marshal(m.Object)
		if err != nil {
			return nil, err
		}
		r := v.ValidateResource(resource.Resource{Path: fileName(m.ID), Bytes: bytes.TrimSpace(b)})
		switch r.Status {
		case validator.Invalid, validator.Error:
			msg := ""
			if r.Err != nil {
				msg = firstLine(r.Err.Error())
			}
			out[i] = Verdict{Rejected: true, Message: msg}
		case validator.Valid:
		default:
			return nil, fmt.Errorf("kubeconform: mutation %d (%s): status %v, want valid or invalid", m.ID, m.Kind, r.Status)
		}
	}
	return out, nil
}
