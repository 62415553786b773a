package healthtest

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

	"github.com/kubeplan/kubeplan/internal/config"
	"github.com/kubeplan/kubeplan/internal/confine"
)

// readCRDs reads the CustomResourceDefinitions in paths: files, or
// directories whose *.yaml and *.yml files (not those of subdirectories)
// are read, each inside root.
func readCRDs(paths []string, root string) ([]map[string]any, error) {
	var out []map[string]any
	for _, p := range paths {
		files, err := yamlFiles(p, root)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			data, err := confine.ReadFileLimit(f, root, config.MaxBytes)
			if err != nil {
				return nil, err
			}
			dec := yaml.NewDecoder(bytes.NewReader(data))
			for {
				var doc map[string]any
				err := dec.Decode(&doc)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					return nil, fmt.Errorf("%s: %w", f, err)
				}
				if doc["kind"] == "CustomResourceDefinition" && strings.HasPrefix(fmt.Sprint(doc["apiVersion"]), "apiextensions.k8s.io/") {
					out = append(out, doc)
				}
			}
		}
	}
	return out, nil
}

func yamlFiles(path, root string) ([]string, error) {
	real, err := confine.Resolve(path, root)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return []string{path}, nil
	}
	des, err := os.ReadDir(real)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, de := range des {
		if n := de.Name(); !de.IsDir() && (strings.HasSuffix(n, ".yaml") || strings.HasSuffix(n, ".yml")) {
			out = append(out, filepath.Join(path, n))
		}
	}
	sort.Strings(out)
	return out, nil
}
