package render

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kubeplan/kubeplan/plan"
)

func TestPlanMarkdownGolden(t *testing.T) {
	golden(t, "plan-mixed.markdown.golden", renderPlan(t, "markdown", planFixture(), PlanOptions{}))
	golden(t, "plan-nochange.markdown.golden", renderPlan(t, "markdown", noChangePlan(), PlanOptions{}))
	golden(t, "plan-cut.markdown.golden", renderPlan(t, "markdown", planFixture(), PlanOptions{MaxBytes: 2200}))
}

var detailsSummary = regexp.MustCompile(`(?m)^<details><summary>(.*)</summary>$`)

func TestPlanMarkdownShape(t *testing.T) {
	p := planFixture()
	out := string(renderPlan(t, "markdown", p, PlanOptions{}))
	for _, want := range []string{
		"### kubeplan plan: namespace `store`, ApplySet `configmap/gitops-applyset`, at `" + p.Revision[:7] + "`\n\n**" + p.Summary().String() + "**\n\n" +
			"> [!CAUTION]\n> Applying **deletes 1 object** from the cluster (see Prune), **deletes and recreates 1 object** whose immutable fields change (see Changes) and **takes back 2 fields changed in the cluster** by hand or by another tool (see Drift).\n\n#### Prune\n",
		"\n#### Drift\n\n",
		"\n#### Changes\n\n",
		"| ➕ create (after its CRD) | `widget.example.com/w1` | `manifests/widget.yaml:9` |\n",
		"| 🔄 update, ⚠️ drift | `deployment.apps/web` | `manifests/deployment.yaml:1` |\n",
		"| ♻️ replace (spec.clusterIPs\\[0\\] is immutable) | `service/api` | `manifests/api.yaml:1` |\n",
		"| `deployment.apps/web` | `spec.replicas` | `6` | `3` | kubectl-scale |\n",
		"\n- `configmap/settings`\n",
		"<details><summary>~ update configmap/readme</summary>\n\n````diff\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	var got []string
	for _, m := range detailsSummary.FindAllStringSubmatch(out, -1) {
		got = append(got, m[1])
	}
	want := []string{
		"+ create customresourcedefinition.apiextensions.k8s.io/widgets.example.com",
		"+ create secret/db-credentials",
		"~ update configmap/readme",
		"~ update deployment.apps/web",
		"-/+ replace service/api",
	}
	if !slices.Equal(got, want) {
		t.Errorf("diff blocks %q, want %q", got, want)
	}
	if strings.Contains(out, "left out") || strings.Contains(out, "No changes") {
		t.Errorf("unexpected note:\n%s", out)
	}
	// Objects outside the plan's namespace say where they are.
	for i := range p.Changes {
		if p.Changes[i].Action == plan.Prune {
			p.Changes[i].Ref.Namespace = "legacy"
		}
	}
	other := string(renderPlan(t, "markdown", p, PlanOptions{}))
	for _, want := range []string{"\n- `configmap/settings` in `legacy`\n", "| 🗑️ prune | `configmap/settings` in `legacy` |  |\n"} {
		if !strings.Contains(other, want) {
			t.Errorf("output lacks %q:\n%s", want, other)
		}
	}
	if nc := string(renderPlan(t, "markdown", noChangePlan(), PlanOptions{})); !strings.Contains(nc, "No changes. The cluster matches the manifests.") {
		t.Errorf("no-change plan lacks the no-changes line:\n%s", nc)
	}
}

// tableCells counts the cells of a GFM table row the way GitHub splits it:
// a backslash escapes the next character, an unescaped | separates cells.
func tableCells(row string) int {
	pipes := 0
	for i := 0; i < len(row); i++ {
		switch row[i] {
		case '\\':
			i++
		case '|':
			pipes++
		}
	}
	return pipes - 1
}

func TestPlanMarkdownEscaping(t *testing.T) {
	out := string(renderPlan(t, "markdown", planFixture(), PlanOptions{}))
	cols := 0
	for l := range strings.SplitSeq(out, "\n") {
		if !strings.HasPrefix(l, "|") {
			cols = 0
			continue
		}
		if cols == 0 {
			cols = tableCells(l)
		}
		if n := tableCells(l); n != cols {
			t.Errorf("row has %d cells, header %d: %q", n, cols, l)
		}
		if strings.ContainsAny(l, "<>\x1b") {
			t.Errorf("row has raw <, > or an escape character: %q", l)
		}
	}
	want := "| `configmap/readme` | `data.motd` | a\\|b \\`c\\` &lt;d&gt; \\\\x1b\\[31mred | `hello` | kubectl-edit |\n"
	if !strings.Contains(out, want) {
		t.Errorf("output lacks the escaped drift row %q", want)
	}
}

// TestPlanMarkdownFence: a diff cannot close its own fence.
func TestPlanMarkdownFence(t *testing.T) {
	for diff, fence := range map[string]string{
		"+a\n":                      "```",
		"+```\n":                    "````",
		"+x ````` y\n+```\n":        "``````",
		"+```go\n+`inline`\n+```\n": "````",
	} {
		p := &plan.Plan{Changes: []plan.Change{{Action: plan.Create, Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Name: "a"}, Diff: diff}}}
		out := string(renderPlan(t, "markdown", p, PlanOptions{}))
		block := fence + "diff\n" + diff + fence + "\n\n</details>\n"
		if !strings.HasSuffix(out, block) {
			t.Errorf("diff %q: output does not end in %q:\n%s", diff, block, out)
		}
	}
}

func TestPlanMarkdownDropsDiffsFromEnd(t *testing.T) {
	p := planFixture()
	full := string(renderPlan(t, "markdown", p, PlanOptions{}))
	out := string(renderPlan(t, "markdown", p, PlanOptions{MaxBytes: len(full) - 1, SummaryHint: "the `plan` artifact"}))
	if len(out) > len(full)-1 {
		t.Fatalf("%d bytes, limit %d", len(out), len(full)-1)
	}
	// Tables and prune list are whole; the kept diffs are the first ones.
	tables := full[:strings.Index(full, "\n<details>")]
	if !strings.Contains(out, tables[strings.Index(tables, "\n#### Prune"):]) {
		t.Errorf("tables were cut although only diffs had to go:\n%s", out)
	}
	kept := detailsSummary.FindAllString(out, -1)
	all := detailsSummary.FindAllString(full, -1)
	if len(kept) == len(all) || !slices.Equal(kept, all[:len(kept)]) {
		t.Errorf("kept diffs %q, want a proper prefix of %q", kept, all)
	}
	note := "> ⚠️ 1 diff was left out to stay under GitHub's " + thousands(len(full)-1) +
		"-character limit; the full plan is in the \\`plan\\` artifact.\n"
	if len(all)-len(kept) != 1 || !strings.Contains(out, note) {
		t.Errorf("want note %q:\n%s", note, out)
	}
	if !strings.Contains(out, "**"+p.Summary().String()+"**\n\n> [!CAUTION]\n> Applying **deletes 1 object** from the cluster (see Prune), **deletes and recreates 1 object** whose immutable fields change (see Changes) and **takes back 2 fields changed in the cluster** by hand or by another tool (see Drift).\n\n> ⚠️") {
		t.Errorf("note is not under the summary:\n%s", out)
	}
}

// TestPlanMarkdownLimit: 5,000 changes with big diffs never exceed the limit.
func TestPlanMarkdownLimit(t *testing.T) {
	big := bigPlan(5000, 2048)
	out := string(renderPlan(t, "markdown", big, PlanOptions{}))
	if len(out) > DefaultMaxBytes {
		t.Fatalf("%d bytes, over %d", len(out), DefaultMaxBytes)
	}
	if len(out) < DefaultMaxBytes-2048 {
		t.Errorf("only %d bytes of %d used", len(out), DefaultMaxBytes)
	}
	for _, want := range []string{
		"**Plan: 0 to add, 5000 to change, 0 to prune, 0 unchanged.**",
		"\n> [!CAUTION]\n> Applying **takes back 5,000 fields changed in the cluster** by hand or by another tool (see Drift).\n",
		"\n> ⚠️ ", " drift rows, 5,000 table rows and 5,000 diffs were left out to stay under GitHub's 65,536-character limit; the full plan is in the job summary.\n",
		"\n| `configmap/cm-00001` | `data.key` | `x` | `y` | kubectl-edit |\n",
		" more not shown._\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	for _, limit := range []int{1, 40, 300, 1000, 1500, 4096, 20000, 100000} {
		for _, p := range []*plan.Plan{planFixture(), big} {
			out := renderPlan(t, "markdown", p, PlanOptions{MaxBytes: limit, SummaryHint: "the artifact"})
			if len(out) > limit || !utf8.Valid(out) {
				t.Errorf("MaxBytes %d: %d bytes, valid UTF-8 %v", limit, len(out), utf8.Valid(out))
			}
		}
	}
}

// TestPlanMarkdownSummaryLink: the note names the limit it was cut for and
// links to where the full plan is.
func TestPlanMarkdownSummaryLink(t *testing.T) {
	out := string(renderPlan(t, "markdown", planFixture(), PlanOptions{MaxBytes: 2200, SummaryHint: "the job log",
		SummaryURL: "https://github.com/acme/shop/actions/runs/42 (x)", LimitName: "the job summary's 1 MiB limit"}))
	want := "> ⚠️ 3 diffs were left out to stay under the job summary's 1 MiB limit; the full plan is in [the job log](https://github.com/acme/shop/actions/runs/42%20%28x%29).\n"
	if !strings.Contains(out, want) {
		t.Errorf("output lacks %q:\n%s", want, out)
	}
}

func TestPlanFailedMarkdown(t *testing.T) {
	var b strings.Builder
	if err := PlanFailedMarkdown(&b, "store", "configmap/gitops-applyset", "lint found 1 error(s)\n```\x1b[31m", 0); err != nil {
		t.Fatal(err)
	}
	want := "### kubeplan plan: namespace `store`, ApplySet `configmap/gitops-applyset`\n\n" +
		"> [!CAUTION]\n> The plan failed; the job log has the details.\n\n" +
		"````\nlint found 1 error(s)\n```\\x1b[31m\n````\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	_ = PlanFailedMarkdown(&b, "", "", strings.Repeat("long error ", 1000), 500)
	if b.Len() > 500 || !strings.HasPrefix(b.String(), "### kubeplan plan\n\n") || !strings.HasSuffix(b.String(), "\n…\n```\n") {
		t.Errorf("cut: %d bytes\n%s", b.Len(), b.String())
	}
}
