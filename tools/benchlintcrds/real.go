package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

const realSectionTitle = "## lint-crds-real: kubeplan vs kubeconform on the rendered kubeflow/manifests"

// describeReal reads a directory kubeflow.sh rendered: what it holds, and
// the files with CustomResourceDefinitions (for openapi2jsonschema.py).
func describeReal(dir string) (*manifestInfo, []string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	m := &manifestInfo{Invalid: map[string]int{}}
	crdKinds := map[string]bool{} // group/kind
	objKinds := map[string]int{}  // group/kind -> objects
	var crdFiles []string
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".yaml") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, nil, err
		}
		m.Files++
		m.Bytes += int64(len(b))
		hasCRD := false
		dec := yaml.NewDecoder(bytes.NewReader(b))
		for {
			var obj struct {
				APIVersion string `yaml:"apiVersion"`
				Kind       string `yaml:"kind"`
				Spec       struct {
					Group    string                `yaml:"group"`
					Names    struct{ Kind string } `yaml:"names"`
					Versions []map[string]any      `yaml:"versions"`
				} `yaml:"spec"`
			}
			var node yaml.Node
			if err := dec.Decode(&node); err != nil {
				if errors.Is(err, io.EOF) {
					break
				}
				return nil, nil, fmt.Errorf("%s: %w", path, err)
			}
			if err := node.Decode(&obj); err != nil || obj.Kind == "" {
				continue
			}
			m.Objects++
			if obj.Kind == "CustomResourceDefinition" {
				hasCRD = true
				m.CRDs++
				m.CRDVersions += len(obj.Spec.Versions)
				crdKinds[obj.Spec.Group+"/"+obj.Spec.Names.Kind] = true
				continue
			}
			g := ""
			if i := strings.LastIndex(obj.APIVersion, "/"); i >= 0 {
				g = obj.APIVersion[:i]
			}
			objKinds[g+"/"+obj.Kind]++
		}
		if hasCRD {
			m.CRDBytes += int64(len(b)) // kubeflow.sh's files hold one kind each
			crdFiles = append(crdFiles, path)
		}
	}
	for k, n := range objKinds {
		if crdKinds[k] {
			m.UsedKinds++
			m.CRs += n
		}
	}
	sort.Strings(crdFiles)
	if m.CRDs == 0 {
		return nil, nil, fmt.Errorf("%s: no CustomResourceDefinitions (render it with tools/benchlintcrds/kubeflow.sh)", dir)
	}
	return m, crdFiles, nil
}

// realCorpus copies the rendered directory src to corpus (so that every
// tool reads the same relative path) and describes it.
func realCorpus(src, corpus string) (*manifestInfo, []string, error) {
	step("corpus: %s (copied from %s)", corpus, src)
	if err := os.RemoveAll(corpus); err != nil {
		return nil, nil, err
	}
	if err := os.MkdirAll(corpus, 0o755); err != nil {
		return nil, nil, err
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		return nil, nil, fmt.Errorf("%w (render it with tools/benchlintcrds/kubeflow.sh %s)", err, src)
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".yaml") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			return nil, nil, err
		}
		if err := os.WriteFile(filepath.Join(corpus, e.Name()), b, 0o644); err != nil {
			return nil, nil, err
		}
	}
	m, files, err := describeReal(corpus)
	if err != nil {
		return nil, nil, err
	}
	if b, err := os.ReadFile(filepath.Clean(src) + ".commit"); err == nil {
		m.Source = "kubeflow/manifests@" + strings.TrimSpace(string(b))
	}
	return m, files, nil
}
