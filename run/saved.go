package run

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kubeplan/kubeplan/internal/sops"
	"github.com/kubeplan/kubeplan/plan"
)

// projectFile is the format of the files plan --out DIR writes, one per
// project (docs/plan-format.md): the project's report with its plan, as
// the views show it. The objects themselves are left out, so the files
// carry no Secret value and can travel as CI artifacts; they are for
// kubeplan comment, not for kubeplan apply.
type projectFile struct {
	Kind    string `json:"kind"` // fileKind
	Version int    `json:"version"`
	ProjectReport
}

const fileKind = "KubeplanProjectPlan"

// fileName is the name of a project's file in DIR.
func fileName(p ProjectReport) string { return p.Project.Name + ".kubeplan.json" }

// SaveDir writes one file per project of r into dir (made if missing), so
// that separate jobs' plans can be merged by kubeplan comment. A project
// that failed or was skipped gets its file too: the merged comment shows
// it.
//
// Like plan.Save, it refuses a run whose plans hold values decrypted from
// SOPS files (plan.DecryptedFiles), and writes nothing then: the files
// travel as CI artifacts. Decrypted values quoted in a project's error
// are hidden (sops.Scrub).
func SaveDir(dir string, r *Report) error {
	for _, p := range r.Projects {
		if p.Plan == nil {
			continue
		}
		if files := plan.DecryptedFiles(p.Plan); len(files) > 0 {
			return fmt.Errorf("not saving the plans to %s: the plan of %s holds values decrypted from SOPS-encrypted files (%s), and kubeplan never writes decrypted values to disk; plan that project without --out", dir, p.Project.Name, strings.Join(files, ", "))
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("writing plans: %w", err)
	}
	for _, p := range r.Projects {
		if p.Plan != nil {
			pl := *p.Plan
			pl.Changes = slices.Clone(pl.Changes)
			for i := range pl.Changes {
				pl.Changes[i].Object = nil
			}
			p.Plan = &pl
		}
		p.Error = sops.Scrub(p.Error)
		data, err := json.MarshalIndent(projectFile{Kind: fileKind, Version: FormatVersion, ProjectReport: p}, "", "  ")
		if err != nil {
			return fmt.Errorf("encoding the plan of %s: %w", p.Project.Name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, fileName(p)), append(data, '\n'), 0o600); err != nil {
			return fmt.Errorf("writing plans: %w", err)
		}
	}
	return nil
}

// LoadFiles reads the project files in paths (each a file, or a directory
// whose *.kubeplan.json files are read, one level down too, as
// actions/download-artifact lays them out) into one report, sorted by
// project path then cluster. A project found twice (same name and
// cluster) is an error, and so is a path holding no project file.
func LoadFiles(paths []string) (*Report, error) {
	r := &Report{Version: FormatVersion}
	seen := map[string]string{}
	for _, p := range paths {
		files, err := projectFiles(p)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			pr, err := readProjectFile(f)
			if err != nil {
				return nil, err
			}
			key := pr.Project.Name + "\x00" + pr.Cluster
			if prev, ok := seen[key]; ok {
				return nil, fmt.Errorf("%s: project %s on cluster %s is also in %s: give each job's plans once", f, pr.Project.Name, pr.Cluster, prev)
			}
			seen[key] = f
			r.Projects = append(r.Projects, pr)
		}
	}
	slices.SortStableFunc(r.Projects, func(a, b ProjectReport) int {
		if c := strings.Compare(a.Project.Path, b.Project.Path); c != 0 {
			return c
		}
		return strings.Compare(a.Cluster, b.Cluster)
	})
	return r, nil
}

// projectFiles lists the project files a path names.
func projectFiles(p string) ([]string, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("reading plans: %w", err)
	}
	if !fi.IsDir() {
		return []string{p}, nil
	}
	var out []string
	for _, pat := range []string{"*.kubeplan.json", "*/*.kubeplan.json"} {
		m, err := filepath.Glob(filepath.Join(p, pat))
		if err != nil {
			return nil, err
		}
		out = append(out, m...)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no project plans (*.kubeplan.json, written by kubeplan plan --out DIR)", p)
	}
	slices.Sort(out)
	return out, nil
}

func readProjectFile(path string) (ProjectReport, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return ProjectReport{}, fmt.Errorf("reading plans: %w", err)
	}
	var f projectFile
	if err := json.Unmarshal(data, &f); err != nil || f.Kind != fileKind {
		return ProjectReport{}, fmt.Errorf("%s is not a project plan written by kubeplan plan --out DIR", path)
	}
	if f.Version != FormatVersion {
		return ProjectReport{}, fmt.Errorf("%s is a version %d project plan; this kubeplan reads version %d: make the plan again with this version", path, f.Version, FormatVersion)
	}
	return f.ProjectReport, nil
}

// Save writes r to out, the file or directory plan --out names (nothing
// when out is ""): a plain invocation's plan as one file for kubeplan
// apply PLANFILE (plan.Save), a run over projects as a directory of one
// file per project (SaveDir).
func Save(out string, r *Report) error {
	switch {
	case out == "":
		return nil
	case r.Single:
		return plan.Save(out, r.Projects[0].Plan)
	}
	return SaveDir(out, r)
}
