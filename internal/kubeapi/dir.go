package kubeapi

import (
	"github.com/kubeplan/kubeplan/internal/cachedir"

	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// FileTemplate is the kubeconform schema-location template, relative to Dir,
// of the schema files: kubeconform -schema-location Dir()+"/"+FileTemplate.
const FileTemplate = "{{ .ResourceKind }}{{ .KindSuffix }}.json"

// completeMarker is written last into an extracted directory; it holds the
// directory's content id.
const completeMarker = ".complete"

var dirCache struct {
	sync.Mutex
	path string
}

// Dir returns a directory holding the embedded JSON schemas, one file per
// GroupVersionKind named as FileTemplate expects. The first call in a machine
// extracts them to <cache>/kubeplan/schemas/<first 16 hex digits of the
// archive's sha256>/; later calls and other processes reuse that directory.
// The result is memoized for the process; a failure is retried next call.
func Dir() (string, error) {
	dirCache.Lock()
	defer dirCache.Unlock()
	if dirCache.path != "" {
		return dirCache.path, nil
	}
	archive, err := artifacts.ReadFile(schemaArchive)
	if err != nil {
		return "", fmt.Errorf("schemas: embedded archive: %w", err)
	}
	base, err := cacheBase()
	if err != nil {
		return "", err
	}
	dir, _, err := install(base, archive)
	if err != nil {
		return "", err
	}
	dirCache.path = dir
	return dir, nil
}

// cacheBase is where the schemas are extracted below (see internal/cachedir).
func cacheBase() (string, error) {
	b, err := cachedir.Base()
	if err != nil {
		return "", fmt.Errorf("schemas: %w", err)
	}
	return b, nil
}

// install makes sure <base>/kubeplan/schemas/<id> holds archive's files and
// returns it, reporting whether this call extracted them. It extracts into a
// temporary sibling and renames it into place, so concurrent processes never
// see a partial directory: the loser of a race discards its copy.
func install(base string, archive []byte) (dir string, extracted bool, err error) {
	sum := sha256.Sum256(archive)
	id := hex.EncodeToString(sum[:8])
	parent := filepath.Join(base, "kubeplan", "schemas")
	dir = filepath.Join(parent, id)
	if isComplete(dir, id) {
		return dir, false, nil
	}

	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", false, fmt.Errorf("schemas: %w", err)
	}
	removeStaleTemps(parent)
	tmp, err := os.MkdirTemp(parent, id+".tmp-")
	if err != nil {
		return "", false, fmt.Errorf("schemas: %w", err)
	}
	defer os.RemoveAll(tmp) // nothing left to remove after a successful rename
	if err := extract(archive, tmp); err != nil {
		return "", false, fmt.Errorf("schemas: extracting %s: %w", schemaArchive, err)
	}
	if err := os.WriteFile(filepath.Join(tmp, completeMarker), []byte(id+"\n"), 0o644); err != nil {
		return "", false, fmt.Errorf("schemas: %w", err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", false, fmt.Errorf("schemas: %w", err)
	}

	if err := os.Rename(tmp, dir); err != nil {
		if isComplete(dir, id) { // another process won the race
			return dir, false, nil
		}
		// dir exists but is not complete (not made by this code): replace it.
		if _, statErr := os.Lstat(dir); statErr != nil {
			return "", false, fmt.Errorf("schemas: %w", err)
		}
		if rmErr := os.RemoveAll(dir); rmErr != nil {
			return "", false, fmt.Errorf("schemas: replacing incomplete %s: %w", dir, rmErr)
		}
		if err := os.Rename(tmp, dir); err != nil {
			if isComplete(dir, id) {
				return dir, false, nil
			}
			return "", false, fmt.Errorf("schemas: %w", err)
		}
	}
	return dir, true, nil
}

func isComplete(dir, id string) bool {
	b, err := os.ReadFile(filepath.Join(dir, completeMarker))
	return err == nil && strings.TrimSpace(string(b)) == id
}

// removeStaleTemps deletes extraction directories abandoned by processes that
// died more than an hour ago. Errors are ignored: this is housekeeping.
func removeStaleTemps(parent string) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.Contains(e.Name(), ".tmp-") {
			continue
		}
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > time.Hour {
			_ = os.RemoveAll(filepath.Join(parent, e.Name()))
		}
	}
}
