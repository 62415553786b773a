package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/kubeplan/kubeplan/internal/sops"
)

// savedPlan is the file format of `kubeplan plan --out FILE`; see
// docs/plan-format.md. Unlike the json output it holds the objects
// themselves (Secret values included: keep plan files out of git and
// logs), and the live resourceVersions the plan was computed from, so that
// `kubeplan apply FILE` can refuse a plan that went stale.
type savedPlan struct {
	Kind string `json:"kind"` // "KubeplanPlan"
	*Plan
}

const savedKind = "KubeplanPlan"

// Save writes p to path, readable only by its owner. It refuses a plan
// with objects decrypted from SOPS files, or derived from their values
// (see DecryptedFiles): decrypted values never touch disk.
func Save(path string, p *Plan) error {
	if files := DecryptedFiles(p); len(files) > 0 {
		return fmt.Errorf("not saving the plan to %s: it holds values decrypted from SOPS-encrypted files (%s), and kubeplan never writes decrypted values to disk; run kubeplan apply on the manifests instead of on a saved plan", path, strings.Join(files, ", "))
	}
	sp := savedPlan{Kind: savedKind, Plan: p}
	if v := savedVersion(p); v != p.Version {
		q := *p
		q.Version = v
		sp.Plan = &q
	}
	data, err := json.MarshalIndent(sp, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding the plan: %w", err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("writing the plan: %w", err)
	}
	return nil
}

// DecryptedFiles names the files of the changes of p that hold values
// decrypted from SOPS: objects read from a SOPS file or derived from its
// values (Change.Decrypted), and any object holding a decrypted value. It
// is nil when p holds none.
func DecryptedFiles(p *Plan) []string {
	var files []string
	for _, c := range p.Changes {
		if (c.Decrypted || sops.Holds(c.Object)) && !slices.Contains(files, c.Source.File) {
			files = append(files, c.Source.File)
		}
	}
	return files
}

// Load reads a plan written by Save, refusing other files and versions.
func Load(path string) (*Plan, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the plan: %w", err)
	}
	var sp savedPlan
	if err := json.Unmarshal(data, &sp); err != nil || sp.Kind != savedKind || sp.Plan == nil {
		return nil, fmt.Errorf("%s is not a kubeplan plan file (written by kubeplan plan --out)", path)
	}
	return checkVersion(path, sp)
}

func checkVersion(path string, sp savedPlan) (*Plan, error) {
	if sp.Version != FormatVersion && sp.Version != FormatVersionWithheld && sp.Version != FormatVersionStaged {
		return nil, fmt.Errorf("%s is a version %d plan; this kubeplan reads version %d: make the plan again", path, sp.Version, FormatVersion)
	}
	return sp.Plan, nil
}

// Detect returns the plan saved in path when the file is one, whatever it
// is called ("tfplan", "plan.json", ...), and nil, nil for anything else (a
// directory, a manifest, a JSON manifest): a saved plan is recognised by its
// content, a JSON document whose kind is KubeplanPlan.
func Detect(path string) (*Plan, error) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil // the loader reports an unreadable file
	}
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return nil, nil
	}
	var sp savedPlan
	if json.Unmarshal(data, &sp) != nil || sp.Kind != savedKind || sp.Plan == nil {
		return nil, nil
	}
	return checkVersion(path, sp)
}

// savedVersion is the version a saved p needs: FormatVersionStaged with
// stages (it implies withheld fields are known), FormatVersionWithheld
// with withheld fields, else the plan's own.
func savedVersion(p *Plan) int {
	switch {
	case len(p.Stages) > 0:
		return FormatVersionStaged
	case holdsWithheld(p):
		return FormatVersionWithheld
	}
	return p.Version
}
