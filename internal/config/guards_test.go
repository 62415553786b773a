package config

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/kubeplan/kubeplan/internal/confine"
)

const ruleFile = `rules:
  - name: no-prune-in-prod
    expression: change.action == "prune" && change.namespace == "prod"
    outcome: deny
    message: nothing is pruned in prod
`

// guardConfig is the config of repo (its kubeplan.yaml, not parsed: the
// files are set as guards.files would set them) with those files.
func guardConfig(t *testing.T, repo string, files ...string) *Config {
	t.Helper()
	root, err := confine.RealDir(repo)
	if err != nil {
		t.Fatal(err)
	}
	c := &Config{File: filepath.Join(repo, DefaultFile), Dir: repo, Root: root, GuardFiles: files}
	for i := range files {
		c.GuardFilesPos = append(c.GuardFilesPos, Pos{3, 5 + i})
	}
	return c
}

// The rule files guards.files names are read through confine, inside the
// checkout: an entry leading out is refused where it is written, a link
// in a rules directory pointing out is refused when read, and nothing of
// the file outside appears.
func TestGuardFilesConfined(t *testing.T) {
	for _, tc := range []struct {
		name, entry string
		setup       func(t *testing.T, repo, canary string)
		want        string
	}{
		{"../ out of the repository", "../outside/token", nil, `guards.files entry "../outside/token"`},
		{"a link inside pointing out", "guards/link.yaml", func(t *testing.T, repo, canary string) {
			write(t, filepath.Join(repo, "guards", "a.yaml"), ruleFile)
			if err := os.Symlink(canary, filepath.Join(repo, "guards", "link.yaml")); err != nil {
				t.Fatal(err)
			}
		}, `guards.files entry "guards/link.yaml"`},
		{"a directory holding a link pointing out", "guards", func(t *testing.T, repo, canary string) {
			write(t, filepath.Join(repo, "guards", "a.yaml"), ruleFile)
			if err := os.Symlink(canary, filepath.Join(repo, "guards", "b.yaml")); err != nil {
				t.Fatal(err)
			}
		}, `guards.files entry "guards"`},
		{"a directory linked out", "rules", func(t *testing.T, repo, canary string) {
			if err := os.Symlink(filepath.Dir(canary), filepath.Join(repo, "rules")); err != nil {
				t.Fatal(err)
			}
		}, `guards.files entry "rules"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo, canary := hostileRepo(t)
			if tc.setup != nil {
				tc.setup(t, repo, canary)
			}
			c := guardConfig(t, repo, tc.entry)
			refusedWithin(t, func() error {
				if err := c.CheckPaths(); err != nil {
					return err
				}
				return c.readGuardFiles()
			}, tc.want)
		})
	}
	t.Run("a FIFO in a rules directory is refused, not waited on", func(t *testing.T) {
		repo, _ := hostileRepo(t)
		write(t, filepath.Join(repo, "guards", "a.yaml"), ruleFile)
		if err := syscall.Mkfifo(filepath.Join(repo, "guards", "pipe.yaml"), 0o644); err != nil {
			t.Fatal(err)
		}
		c := guardConfig(t, repo, "guards")
		refusedWithin(t, c.readGuardFiles, "named pipe")
	})
}

// An entry that is missing, or a directory without rule files, is an
// error at the entry's place that says which.
func TestGuardFilesErrors(t *testing.T) {
	repo := tempDir(t)
	gitRepo(t, repo)
	write(t, filepath.Join(repo, "empty", "README.md"), "no rules here\n")
	write(t, filepath.Join(repo, "ok.yaml"), ruleFile)
	for _, tc := range []struct {
		entries []string
		want    string
	}{
		{[]string{"ok.yaml", "missing.yaml"}, `kubeplan.yaml:3:6: guards.files entry "missing.yaml": reading `},
		{[]string{"empty"}, `kubeplan.yaml:3:5: guards.files entry "empty": `},
	} {
		c := guardConfig(t, repo, tc.entries...)
		err := c.readGuardFiles()
		if err == nil || !strings.HasPrefix(err.Error(), filepath.Join(repo, tc.want)) {
			t.Errorf("%v: err = %v\nwant %s", tc.entries, err, tc.want)
		}
	}
	c := guardConfig(t, repo, "empty")
	if err := c.readGuardFiles(); err == nil || !strings.Contains(err.Error(), "holds no .yaml or .yml file") {
		t.Errorf("empty directory: %v", err)
	}
}

// A directory's *.yaml and *.yml files are the rules files, in name
// order; other files and subdirectories are not.
func TestRuleFiles(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"b.yml", "a.yaml", "notes.md", "sub/c.yaml", "c.yaml.bak"} {
		write(t, filepath.Join(dir, f), "[]\n")
	}
	got, err := ruleFiles(dir, "")
	want := []string{filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yml")}
	if err != nil || strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("ruleFiles = %v, %v; want %v", got, err, want)
	}
	if got, err := ruleFiles(filepath.Join(dir, "notes.md"), ""); err != nil || len(got) != 1 {
		t.Errorf("a file names itself: %v, %v", got, err)
	}
}

// guards: in kubeplan.yaml, with the rules of the files it names after
// its own, in order. This needs guard.ParseConfig and guard.ParseRules,
// which are stubs until the guard engine lands: the test says so and
// stops where they return nothing.
func TestGuardsFromKubeplanYAML(t *testing.T) {
	repo := tempDir(t)
	gitRepo(t, repo)
	write(t, filepath.Join(repo, "guards", "b.yaml"), strings.ReplaceAll(ruleFile, "no-prune-in-prod", "from-b"))
	write(t, filepath.Join(repo, "guards", "a.yaml"), strings.ReplaceAll(ruleFile, "no-prune-in-prod", "from-a"))
	write(t, filepath.Join(repo, "extra.yaml"), strings.ReplaceAll(ruleFile, "no-prune-in-prod", "extra"))
	write(t, filepath.Join(repo, DefaultFile), `guards:
  builtin:
    protect-pvc: warn
  rules:
    - name: own
      expression: "true"
      outcome: warn
  files: [guards, extra.yaml]
`)
	c, err := Discover(repo)
	if err != nil {
		t.Fatal(err)
	}
	if c.Guards.File != c.File {
		t.Errorf("Guards.File = %q, want %q", c.Guards.File, c.File)
	}
	if len(c.GuardFilesPos) != 2 || c.At(c.GuardFilesPos[1]) != c.File+":8:19" {
		t.Errorf("files positions: %v", c.GuardFilesPos)
	}
	var names []string
	for _, r := range c.Guards.Rules {
		names = append(names, r.Name)
	}
	if got := strings.Join(names, ","); got != "own,from-a,from-b,extra" {
		t.Errorf("rules = %s, want own,from-a,from-b,extra", got)
	}
	if r := c.Guards.Rules[1]; r.File != filepath.Join(repo, "guards", "a.yaml") && !strings.HasSuffix(r.File, filepath.Join("guards", "a.yaml")) {
		t.Errorf("rule from-a read from %q", r.File)
	}
}
