package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// pruneCount is how many ConfigMaps the prune scenario removes.
const pruneCount = 100

var nameLine = regexp.MustCompile(`(?m)^  name: (\S+)$`)

// writeWithout copies the corpus in src to dst without n ConfigMaps: the
// last ConfigMap of each app file (app-0001.yaml first), one per file, never
// the first one (config-00, which the Deployment reads). It returns
// the removed objects as "ConfigMap/name", sorted.
func writeWithout(src, dst string, n int) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(src, "*.yaml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	if err := os.RemoveAll(dst); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return nil, err
	}
	var removed []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		text := string(b)
		if len(removed) < n {
			var name string
			if text, name = dropLastConfigMap(text); name != "" {
				removed = append(removed, "ConfigMap/"+name)
			}
		}
		if err := os.WriteFile(filepath.Join(dst, filepath.Base(f)), []byte(text), 0o644); err != nil {
			return nil, err
		}
	}
	if len(removed) < n {
		return nil, fmt.Errorf("%s: only %d ConfigMaps could be removed, want %d", src, len(removed), n)
	}
	sort.Strings(removed)
	return removed, nil
}

// dropLastConfigMap removes the last ConfigMap document of a generated file
// (documents separated by "---" lines), unless it is the file's first one
// (config-00, which the Deployment reads), and returns the text and its name.
func dropLastConfigMap(text string) (string, string) {
	docs := strings.Split(text, "---\n")
	for i := len(docs) - 1; i >= 1; i-- {
		if !strings.Contains(docs[i], "\nkind: ConfigMap\n") && !strings.HasPrefix(docs[i], "kind: ConfigMap\n") {
			continue
		}
		m := nameLine.FindStringSubmatch(docs[i])
		if m == nil {
			return text, ""
		}
		docs = append(docs[:i], docs[i+1:]...)
		return strings.Join(docs, "---\n"), m[1]
	}
	return text, ""
}
