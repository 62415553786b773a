package render

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/lint"
)

func TestGitHubGolden(t *testing.T) {
	golden(t, "lint.github.golden", render(t, "github", mixedReport(), testOpts))
	if out := render(t, "github", lint.Report{Files: 3}, testOpts); len(out) != 0 {
		t.Errorf("no findings should print nothing, got %q", out)
	}
}

func TestGitHubCommands(t *testing.T) {
	rep := mixedReport()
	lines := strings.Split(strings.TrimSuffix(string(render(t, "github", rep, testOpts)), "\n"), "\n")
	want := []string{
		// errors first, by file and line; range, object and namespace
		"::error file=apps/web.yaml,line=3,col=1,endLine=3,endColumn=18,title=schema::spec.replicas: expected integer, got string \"two\" (deployment.apps/web in prod)",
		"::error file=apps/web.yaml,line=31,col=1,title=schema::metadata.name: required (poddisruptionbudget.policy/web)",
		// no position: a file-level annotation
		"::error file=base/empty.yaml,title=parse::yaml: did not find expected key",
		"::warning file=apps/web.yaml,line=12,col=16,title=no-latest-tag::image \"nginx:latest\" uses the latest tag (deployment.apps/web in prod)",
		// % in the message escaped, , and : left alone
		"::warning file=my dir/cm.yaml,line=4,col=5,title=custom-cel::data key \"a,b:c\" is not <portable> & 100%25 wrong (configmap/settings in prod)",
		// info is a notice; the newline in the message is escaped
		"::notice file=apps/web.yaml,line=30,col=3,title=deprecated-api::policy/v1beta1 is removed in 1.25%0Ause policy/v1 (poddisruptionbudget.policy/web)",
	}
	if !slices.Equal(lines, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

func TestGitHubPropertyEscaping(t *testing.T) {
	rep := lint.Report{Findings: []lint.Finding{{File: "a,b:c.yaml", Line: 1, Col: 2, Severity: lint.Warning, Rule: "x:y,z", Message: "m"}}}
	want := "::warning file=a%2Cb%3Ac.yaml,line=1,col=2,title=x%3Ay%2Cz::m\n"
	if got := string(render(t, "github", rep, testOpts)); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// manyFindings makes e errors, w warnings and n infos, interleaved by file
// and line the way lint sorts them.
func manyFindings(e, w, n int) lint.Report {
	var fs []lint.Finding
	add := func(count int, sev lint.Severity) {
		for i := range count {
			fs = append(fs, lint.Finding{File: fmt.Sprintf("f%02d.yaml", (i*7)%23), Line: i + 1, Col: 3, Severity: sev, Rule: sev.String() + "-rule", Message: "m"})
		}
	}
	add(e, lint.Error)
	add(w, lint.Warning)
	add(n, lint.Info)
	lint.Sort(fs)
	return lint.Report{Findings: fs, Files: 23}
}

func TestGitHubCap(t *testing.T) {
	for _, c := range []struct {
		e, w, n            int
		errs, warns, notes int
		notice             string
	}{
		{3, 4, 5, 3, 4, 5, ""},
		{10, 10, 10, 10, 10, 10, ""},
		{14, 12, 0, 10, 10, 1, "4 more errors and 2 more warnings were not annotated (GitHub shows 10 of each kind per step); the job summary lists all 26 findings."},
		{11, 3, 2, 10, 3, 3, "1 more error was not annotated (GitHub shows 10 of each kind per step); the job summary lists all 16 findings."},
		{0, 25, 0, 0, 10, 1, "15 more warnings were not annotated (GitHub shows 10 of each kind per step); the job summary lists all 25 findings."},
		// Notices stop at 9 so the count is the 10th.
		{12, 0, 10, 10, 0, 10, "2 more errors and 1 more info were not annotated (GitHub shows 10 of each kind per step); the job summary lists all 22 findings."},
		{0, 0, 11, 0, 0, 10, "2 more infos were not annotated (GitHub shows 10 of each kind per step); the job summary lists all 11 findings."},
		{30, 30, 30, 10, 10, 10, "20 more errors, 20 more warnings and 21 more infos were not annotated (GitHub shows 10 of each kind per step); the job summary lists all 90 findings."},
	} {
		name := fmt.Sprintf("%d/%d/%d", c.e, c.w, c.n)
		lines := strings.Split(strings.TrimSuffix(string(render(t, "github", manyFindings(c.e, c.w, c.n), testOpts)), "\n"), "\n")
		count := map[string]int{}
		rank := map[string]int{"::error": 0, "::warning": 1, "::notice": 2}
		last, lastFile, lastLine := -1, "", 0
		for _, l := range lines {
			kind, _, _ := strings.Cut(l, " ")
			count[kind]++
			if strings.HasPrefix(l, "::notice title=kubeplan lint::") {
				continue
			}
			// Errors, then warnings, then notices; by file and line within.
			var file string
			var line int
			if n, _ := fmt.Sscanf(strings.ReplaceAll(strings.SplitN(l, "::", 3)[1], ",", " "), kind[2:]+" file=%s line=%d", &file, &line); n != 2 {
				t.Fatalf("%s: cannot read %q", name, l)
			}
			if rank[kind] < last || rank[kind] == last && (file < lastFile || file == lastFile && line < lastLine) {
				t.Errorf("%s: %q out of order", name, l)
			}
			last, lastFile, lastLine = rank[kind], file, line
		}
		if count["::error"] != c.errs || count["::warning"] != c.warns || count["::notice"] != c.notes {
			t.Errorf("%s: %v annotations, want %d errors, %d warnings, %d notices", name, count, c.errs, c.warns, c.notes)
		}
		gotNotice := ""
		if l := lines[len(lines)-1]; strings.HasPrefix(l, "::notice title=kubeplan lint::") {
			gotNotice = strings.TrimPrefix(l, "::notice title=kubeplan lint::")
		}
		if gotNotice != c.notice {
			t.Errorf("%s: notice %q, want %q", name, gotNotice, c.notice)
		}
	}
}
