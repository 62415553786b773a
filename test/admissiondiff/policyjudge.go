package admissiondiff

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/yaml"

	"github.com/kubeplan/kubeplan/lint"
)

// Judgement is whether a policy or binding is created, and when it is
// refused the field paths the refusal names, as the API server prints
// them ("spec.paramRef.parameterNotFoundAction"), sorted and unique.
type Judgement struct {
	Refused bool
	Paths   []string
}

// String is "created", or "refused" and the paths.
func (j Judgement) String() string {
	if !j.Refused {
		return "created"
	}
	return "refused " + strings.Join(j.Paths, ",")
}

func judgement(paths []string) Judgement {
	slices.Sort(paths)
	return Judgement{Refused: true, Paths: slices.Compact(paths)}
}

var (
	unknownField = regexp.MustCompile(`unknown field "([^"]+)"`)
	typeField    = regexp.MustCompile(`Go struct field [A-Za-z0-9]+\.(\S+) of type`)
	refusedField = regexp.MustCompile(`is refused by the API server: ([^\s:]+): `)
	compileField = regexp.MustCompile(`: (spec\.\S+) does not compile`)
)

// ServerJudgement reads the API server's answer to a create: nil is
// created; else the fields its causes name, or those its decoding error
// names (an unknown field, a field of the wrong type).
func ServerJudgement(err error) Judgement {
	if err == nil {
		return Judgement{}
	}
	var paths []string
	var se apierrors.APIStatus
	if errors.As(err, &se) && se.Status().Details != nil {
		for _, c := range se.Status().Details.Causes {
			if c.Field != "" {
				paths = append(paths, c.Field)
			}
		}
	}
	if len(paths) == 0 {
		for _, m := range unknownField.FindAllStringSubmatch(err.Error(), -1) {
			paths = append(paths, m[1])
		}
		if m := typeField.FindStringSubmatch(err.Error()); m != nil {
			paths = append(paths, m[1])
		}
	}
	if len(paths) == 0 {
		paths = []string{"?" + err.Error()}
	}
	return judgement(paths)
}

// LintMode says how lint reads the corpus.
type LintMode int

const (
	// AsPolicies passes the corpus with --policies: lint does not lint the
	// files, lint/admission alone validates the policies and bindings.
	AsPolicies LintMode = iota
	// AsLinted lints the corpus as the set: every rule runs.
	AsLinted
)

// LintJudgements writes every case to its own file under dir and lints
// them in mode, with the CustomResourceDefinitions of crds (--crds): a
// case is refused when lint has an error on its file, naming the fields
// of those errors.
func LintJudgements(dir string, cases []PolicyCase, mode LintMode, crds ...string) ([]Judgement, error) {
	files := make([]string, len(cases))
	for i, c := range cases {
		b, err := yaml.Marshal(c.Object)
		if err != nil {
			return nil, err
		}
		files[i] = filepath.Join(dir, fmt.Sprintf("case-%03d.yaml", i))
		if err := os.WriteFile(files[i], b, 0o644); err != nil {
			return nil, err
		}
	}
	in := lint.Input{Paths: []string{dir}, CRDPaths: crds}
	if mode == AsPolicies {
		empty := filepath.Join(dir, "empty")
		if err := os.MkdirAll(empty, 0o755); err != nil {
			return nil, err
		}
		in = lint.Input{Paths: []string{empty}, PolicyPaths: []string{dir}, CRDPaths: crds}
	}
	rep, _, err := lint.Check(in, lint.Options{})
	if err != nil {
		return nil, err
	}
	byFile := map[string][]string{}
	for _, f := range rep.Findings {
		if f.Severity == lint.Error {
			byFile[f.File] = append(byFile[f.File], findingPaths(f)...)
		}
	}
	out := make([]Judgement, len(cases))
	for i, file := range files {
		if paths, ok := byFile[file]; ok {
			out[i] = judgement(paths)
		}
	}
	return out, nil
}

// findingPaths are the field paths an error finding names.
func findingPaths(f lint.Finding) []string {
	if m := unknownField.FindAllStringSubmatch(f.Message, -1); m != nil {
		var out []string
		for _, s := range m {
			out = append(out, s[1])
		}
		return out
	}
	for _, re := range []*regexp.Regexp{refusedField, compileField} {
		if m := re.FindStringSubmatch(f.Message); m != nil {
			return []string{m[1]}
		}
	}
	if f.Field != "" {
		return []string{f.Field}
	}
	return []string{"?" + f.Rule + ": " + f.Message}
}
