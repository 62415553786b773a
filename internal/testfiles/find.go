package testfiles

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// In is the test files named name in dir, sorted; dir itself when it is a
// file (a test file named on the command line, whatever its name).
func In(dir, name string) ([]string, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return []string{dir}, nil
	}
	found, err := Under(dir, name)
	return found[name], err
}

// Under returns, for each of names, the files so named under dir, each
// list sorted. Hidden directories (.git, ...) below dir are skipped.
func Under(dir string, names ...string) (map[string][]string, error) {
	out := map[string][]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if slices.Contains(names, d.Name()) {
			out[d.Name()] = append(out[d.Name()], p)
		}
		return nil
	})
	for _, files := range out {
		sort.Strings(files)
	}
	return out, err
}
