package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/kubeplan/kubeplan/internal/benchkit"
)

const sectionTitle = "## projects: kubeplan plan --all vs one set, --changed-since and kubectl diff per overlay"

// The targets of issue 13.
const (
	targetAllVsFlat    = 1.5 // a / b
	targetChangedVsAll = 0.1 // c / a
	// targetAllVsFloor is issue 33's: a / (b + the bare kustomize build).
	targetAllVsFloor = 1.3
)

// result is one run of the benchmark.
type result struct {
	When                            time.Time
	Machine                         benchkit.Machine
	Runs                            int
	Spec                            spec
	Quick                           bool
	Changed                         string // the overlay the last commit changed
	KubeplanVersion, KubectlVersion string
	LoadBefore, LoadAfter           string
	Commands                        map[string]string
	Samples                         map[string][]sample
	Errors                          map[string]string // first lines of a failure
	Outputs                         map[string]string // the last line each printed
	// KustomizeFloor is the bare library building every overlay.
	KustomizeFloor time.Duration
}

var labels = map[string]string{
	kAll:     "(a) kubeplan plan --all",
	kFlat:    "(b) kubeplan plan, the same objects as one set",
	kChanged: "(c) kubeplan plan --changed-since HEAD~1",
	kKubectl: "(d) kubectl diff --server-side --field-manager=kubeplan -k, each overlay",
	kOneSet:  "(e) kubeplan plan, the same overlays as one set, built by kustomize",
	kOne:     "(f) kubeplan plan --project, the changed overlay named",
}

// ratio is the median over rounds of a's wall / b's wall (rounds share the
// machine's load), 0 when either was not measured.
func (r *result) ratio(a, b string) float64 {
	var rs []float64
	for i, s := range r.Samples[a] {
		if i < len(r.Samples[b]) && r.Samples[b][i].Wall > 0 {
			rs = append(rs, float64(s.Wall)/float64(r.Samples[b][i].Wall))
		}
	}
	return benchkit.Median(rs)
}

func (r *result) markdown() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("%s\n\n", sectionTitle)
	w("Command: `make bench-projects` (`go run ./tools/benchprojects`; `-quick` for a smoke test of %d projects; add `-doc docs/benchmarks.md` to rewrite this section).\n\n", quickSpec.projects())
	w("Targets: (a) `kubeplan plan --all` over %d projects takes at most %.1f× (b), one plan of the same objects as one set, and (issue 33) at most %.1f× its floor, (b) plus the overlays' bare kustomize build; (c) `--changed-since` after a change to one overlay takes at most %.1f× (a); (a) / (d), kubectl diff run once per overlay, is reported.\n\n",
		r.Spec.projects(), targetAllVsFlat, targetAllVsFloor, targetChangedVsAll)
	if r.Quick {
		w("**This is a -quick run** (%d projects): not the benchmark of record.\n\n", r.Spec.projects())
	}
	verdict := func(name string, got, target float64, a, b string) string {
		if got == 0 {
			return fmt.Sprintf("%s not measured (%s)", name, r.missing(a, b))
		}
		v := "PASS"
		if got > target {
			v = "FAIL"
		}
		return fmt.Sprintf("%s %.2f× (%s, target ≤ %.1f×)", name, got, v, target)
	}
	w("**Result:** %s; %s; %s; a/d %s.\n\n",
		verdict("a/b", r.ratio(kAll, kFlat), targetAllVsFlat, kAll, kFlat),
		verdict("a/floor", r.floorRatio(), targetAllVsFloor, kAll, kFlat),
		verdict("c/a", r.ratio(kChanged, kAll), targetChangedVsAll, kChanged, kAll),
		ratioText(r.ratio(kAll, kKubectl)))
	w("| rounds: %d, alternating, after one warm-up round | median wall | min wall | median CPU (user+sys) | median cluster CPU | peak RSS |\n|---|---:|---:|---:|---:|---:|\n", r.Runs)
	for _, k := range order {
		if e := r.Errors[k]; e != "" {
			w("| %s | failed: `%s` | | | | |\n", labels[k], strings.ReplaceAll(firstLine(e), "|", "\\|"))
			continue
		}
		s := benchkit.Summarize(r.Samples[k])
		w("| %s | %s | %s | %s | %s | %d MiB |\n", labels[k], secs(s.MedianWall), secs(s.MinWall), secs(s.MedianCPU), secs(s.MedianSrv), s.PeakRSS/1024)
	}
	w("\n| paired ratio (median of per-round ratios) | value | target |\n|---|---:|---:|\n")
	w("| a / b | %s | ≤ %.1f× |\n", ratioText(r.ratio(kAll, kFlat)), targetAllVsFlat)
	w("| a / (b + bare kustomize build) | %s | ≤ %.1f× |\n", ratioText(r.floorRatio()), targetAllVsFloor)
	w("| c / a | %s | ≤ %.1f× |\n", ratioText(r.ratio(kChanged, kAll)), targetChangedVsAll)
	w("| a / d | %s | |\n", ratioText(r.ratio(kAll, kKubectl)))
	w("| b / d | %s | |\n", ratioText(r.ratio(kFlat, kKubectl)))
	w("| a / e | %s | |\n", ratioText(r.ratio(kAll, kOneSet)))
	w("| c / f | %s | |\n\n", ratioText(r.ratio(kChanged, kOne)))
	w("The floor of (c) is (f): the one project it selects, named, with no git diff to make; (c) / (f) is what finding it costs.\n\n")
	if f := r.KustomizeFloor; f > 0 {
		sa, sb := benchkit.Summarize(r.Samples[kAll]), benchkit.Summarize(r.Samples[kFlat])
		if sa.MedianWall > 0 && sb.MedianWall > 0 {
			w("The floor: (b) reads rendered files, while every plan of these overlays must build them. The bare kustomize library (`krusty`, in-process, no origin annotations) builds the %d overlays in %s (best of 3), so no plan of them can take less than (b) + that = %s; (a) is %.2f× that floor.\n\n",
				r.Spec.projects(), secs(f), secs(sb.MedianWall+f), float64(sa.MedianWall)/float64(sb.MedianWall+f))
		}
	}
	w("Setup:\n\n")
	w("- Repository: generated in a temporary directory and committed (a real git repository): %d bases × %d overlays (dev, prod) = %d projects, %d objects each (%d ConfigMaps, one of them from a configMapGenerator whose hashed name the Deployments refer to, 2 Deployments, 2 Services (one headless), a ServiceAccount, a Role and its RoleBinding, a PodDisruptionBudget, a NetworkPolicy), %d objects in all. Each overlay has its own namespace (`namespace:`), labels, an `images:` tag, a replicas patch and, in prod, a resources patch; `kubeplan.yaml` gives every project the ApplySet `configmap/kubeplan-{name}`.\n",
		r.Spec.Bases, len(envs), r.Spec.projects(), r.Spec.objectsPerProject(), r.Spec.ConfigMaps+1, r.Spec.objects())
	w("- (b)'s directory: the same overlays rendered by kustomize into one plain directory for namespace `%s`, each overlay's names given its environment (`app00-web` → `app00-dev-web`) so that nothing collides; ApplySet `%s`.\n", flatNamespace, flatApplySet)
	w("- (e)'s kustomization: `oneset/kustomization.yaml` lists, for each overlay, a kustomization that takes it as its only resource under a name prefix of its environment (`dev-`, `prod-`), all in namespace `%s`, ApplySet `%s`; it reads and builds exactly the files (a) does (the repository's `kubeplan.yaml` ignores `oneset/`).\n", oneSetNamespace, oneSetApplySet)
	w("- Before the rounds, every overlay and the flat directory were applied once with `kubeplan apply --wait=false` (into namespaces made beforehand); then a commit changed the image tag of `%s`, so (a) and (c) find one changed project and (b) and (d) none.\n", r.Changed)
	for _, k := range order {
		w("- %s: `%s`", labels[k], r.Commands[k])
		if out := r.Outputs[k]; out != "" && k != kKubectl {
			w(" (last line: `%s`)", out)
		}
		w("\n")
	}
	w("- (d) diffs as kubeplan's field manager: the objects are kubeplan's, and with kubectl's own manager the server refuses the changed overlay's dry-run (`Apply failed with 1 conflict: conflict with \"kubeplan\"`); it exits 1 where an overlay differs, which counts as a run that worked.\n")
	w("- Every command ran against bin/testcluster with `KUBECONFIG` set to its admin kubeconfig, from the repository's directory.\n")
	w("- kubeplan, built from the working tree: %s; kubectl: %s.\n", r.KubeplanVersion, r.KubectlVersion)
	m := r.Machine
	w("- Machine: %d CPUs (%s), %s RAM, %s, %s; commit %s; %s.\n", m.NumCPU, m.CPUModel, m.MemTotal, m.Kernel, m.GoVersion, m.Commit, r.When.UTC().Format("2006-01-02 15:04 UTC"))
	w("- Load average (1 min) before/after: %s / %s. The machine is shared, so absolute times are noisy; the ratios come from alternating rounds, which share the load.\n", r.LoadBefore, r.LoadAfter)
	return b.String()
}

func (r *result) missing(ks ...string) string {
	var out []string
	for _, k := range ks {
		if r.Errors[k] != "" {
			out = append(out, k+" failed")
		}
	}
	if len(out) == 0 {
		return "no rounds"
	}
	return strings.Join(out, ", ")
}

func ratioText(x float64) string {
	if x == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f×", x)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// floorRatio is the median over rounds of (a) / ((b) + the bare kustomize
// build of the overlays); 0 when not measured.
func (r *result) floorRatio() float64 {
	a, b := r.Samples[kAll], r.Samples[kFlat]
	if r.KustomizeFloor <= 0 || len(a) == 0 || len(a) != len(b) {
		return 0
	}
	var rs []float64
	for i := range a {
		rs = append(rs, float64(a[i].Wall)/float64(b[i].Wall+r.KustomizeFloor))
	}
	return benchkit.Median(rs)
}
