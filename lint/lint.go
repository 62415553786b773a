package lint

import (
	"fmt"
	"runtime"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/kubeplan/kubeplan/internal/kubeapi"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/loader"
)

// IgnoreAnnotation lists rule ids not to report for one object.
const IgnoreAnnotation = "kubeplan.dev/ignore"

// linter holds what one run needs: the API index, the schemas, the CRDs.
type linter struct {
	opts        Options
	kubeVersion string
	index       *kubeapi.APIIndex
	crds        *crdSet
	crdCache    *crdCache
}

var builtins builtinSchemas

// run lints a loaded set: loading problems, API versions, schemas, CRDs and
// policies. It returns an error only when linting itself could not work.
func run(res *loader.Result, opts Options) (Report, error) {
	l, err := newLinter(opts)
	if err != nil {
		return Report{}, err
	}
	if opts.Loaded != nil {
		opts.Loaded(res.Objects)
	}
	var findings []Finding
	for _, p := range res.Problems {
		findings = append(findings, problemFinding(p))
	}
	if l.crds, err = collectCRDs(append(append([]*manifest.Object{}, res.Objects...), opts.CRDs...)); err != nil {
		return Report{}, err
	}

	perObject, err := l.checkAll(res.Objects)
	if err != nil {
		return Report{}, err
	}
	findings = append(findings, perObject...)
	crdFindings, err := l.crds.schemaFindings(nil) // every CRD is in memory
	if err != nil {
		return Report{}, err
	}
	findings = append(findings, crdFindings...)
	findings = append(findings, runPolicies(res.Objects, opts)...)
	findings = applySettings(findings, res.Objects, opts.Rules)
	Sort(findings)
	return Report{Findings: findings, Files: res.Files, Objects: len(res.Objects)}, nil
}

// newLinter checks the options and loads the API index and schemas.
func newLinter(opts Options) (*linter, error) {
	kv, err := NormalizeKubeVersion(opts.KubeVersion)
	if err != nil {
		return nil, err
	}
	idx, err := kubeapi.Index()
	if err != nil {
		return nil, fmt.Errorf("reading the built-in API index: %w", err)
	}
	if err := builtins.init(); err != nil {
		return nil, err
	}
	return &linter{opts: opts, kubeVersion: kv, index: idx, crds: newCRDSet(), crdCache: newCRDCache(opts.crdCacheBytes)}, nil
}

// checkAll validates every object, in parallel, keeping input order.
func (l *linter) checkAll(objs []*manifest.Object) ([]Finding, error) {
	results := make([][]Finding, len(objs))
	var g errgroup.Group
	g.SetLimit(workers(l.opts.Concurrency))
	for i, o := range objs {
		g.Go(func() (err error) {
			results[i], err = l.checkObject(o)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	var out []Finding
	for _, r := range results {
		out = append(out, r...)
	}
	return out, nil
}

func (l *linter) checkObject(o *manifest.Object) ([]Finding, error) {
	verdict, findings := l.checkAPI(o)
	if o.Name == "" {
		findings = append(findings, objectFinding(o, []string{"metadata"}, Error, "schema",
			"metadata.name is missing; every object needs a name (or generateName)"))
	}
	findings = append(findings, metaFindings(o)...)
	switch verdict {
	case apiBuiltin:
		c, err := builtins.get(o.APIVersion, o.Kind)
		if err != nil {
			return nil, err
		}
		if c == nil {
			return findings, nil // served by an older version only: no 1.37 schema
		}
		if err := c.validate(o.Content); err != nil {
			findings = append(findings, schemaFindings(o, c, err, "schema")...)
		}
		findings = semanticFindings(o, findings)
	case apiCustom:
		findings = append(findings, l.checkCustom(o)...)
	}
	findings = l.yaml11Check(o, verdict, findings)
	return findings, nil
}

// checkCustom validates a custom resource against its CRD.
func (l *linter) checkCustom(o *manifest.Object) []Finding {
	cv, ok := l.crds.versions[crdKey(o.Group(), o.Version(), o.Kind)]
	if !ok {
		sev := Error
		hint := "add the CustomResourceDefinition to the linted files or pass it with --crds, or use --ignore-missing-schemas"
		if l.opts.IgnoreMissingSchemas {
			sev, hint = Warning, "not validated"
		}
		return []Finding{objectFinding(o, []string{"kind"}, sev, "missing-schema",
			fmt.Sprintf("no schema for %s %s: no CustomResourceDefinition for it was found; %s", o.APIVersion, o.Kind, hint))}
	}
	if !cv.served {
		return []Finding{objectFinding(o, []string{"apiVersion"}, Error, "crd-schema",
			fmt.Sprintf("version %s of %s is not served by its CustomResourceDefinition (%s:%d)", o.Version(), o.Kind, cv.file, cv.line))}
	}
	if cv.schema == nil {
		return nil
	}
	c, err := cv.schema.get(l.crdCache)
	if err != nil {
		return nil // reported on the CRD (crdSet.schemaFindings)
	}
	var findings []Finding
	if err := c.validate(o.Content); err != nil {
		findings = append(findings, schemaFindings(o, &c.compiled, err, "crd-schema")...)
	}
	if ruleOff(l.opts, "crd-validation") {
		return findings
	}
	var vs []celViolation
	checkCEL(c.cel, o.Content, nil, &vs)
	for _, v := range vs {
		findings = append(findings, objectFinding(o, v.path, Error, "crd-validation", fieldPrefix(v.path)+v.message))
	}
	return findings
}

func fieldPrefix(path []string) string {
	if len(path) == 0 {
		return ""
	}
	return fieldPath(path) + ": "
}

// objectFinding makes a finding about the field at path of o.
func objectFinding(o *manifest.Object, path []string, sev Severity, rule, msg string) Finding {
	start, end := o.Span(path...)
	f := Finding{File: o.FileOf(path...), Line: start.Line, Col: start.Col, Severity: sev, Rule: rule, Message: msg,
		Object: o.String(), Namespace: o.Namespace, Field: fieldPath(path)}
	if end != start {
		f.EndLine, f.EndCol = end.Line, end.Col
	}
	return f
}

func problemFinding(p *manifest.Problem) Finding {
	f := Finding{File: p.File, Line: p.Line, Col: p.Col, Severity: Error, Rule: p.Rule, Message: p.Message}
	f.Severity = problemSeverity(p)
	if p.End.Line > 0 {
		f.EndLine, f.EndCol = p.End.Line, p.End.Col
	}
	return f
}

// runPolicies runs every enabled built-in rule over the whole set.
func runPolicies(objs []*manifest.Object, opts Options) []Finding {
	return append(runPolicyRules(objs, opts, false), runPolicyRules(objs, opts, true)...)
}

// applySettings drops findings an object's ignore annotation names, and
// re-grades or drops findings by rule as configured.
func applySettings(fs []Finding, objs []*manifest.Object, rules map[string]RuleSetting) []Finding {
	ignored := map[string]map[string]bool{} // object file+name -> rule ids
	for _, o := range objs {
		a := ignoreAnnotation(o)
		if a == "" {
			continue
		}
		set := map[string]bool{}
		for _, id := range strings.Split(a, ",") {
			set[strings.TrimSpace(id)] = true
		}
		for _, file := range o.Files() { // findings about fields an overlay set are in its files
			ignored[ignoreKey(file, o.String(), o.Namespace)] = set
		}
	}
	out := fs[:0]
	for _, f := range fs {
		if f.Object != "" && ignored[ignoreKey(f.File, f.Object, f.Namespace)][f.Rule] {
			continue
		}
		if s, ok := rules[f.Rule]; ok {
			if s.Off {
				continue
			}
			f.Severity = s.Severity
		}
		out = append(out, f)
	}
	return out
}

// ignoreAnnotation is o's IgnoreAnnotation, "" when it has none or it is
// not a string: Annotations()[IgnoreAnnotation] without building the map.
func ignoreAnnotation(o *manifest.Object) string {
	return o.GetString("metadata", "annotations", IgnoreAnnotation)
}

func ignoreKey(file, obj, ns string) string { return file + "\x00" + ns + "\x00" + obj }

// workers is how many goroutines check at once: n, or the number of CPUs
// when n <= 0.
func workers(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}
