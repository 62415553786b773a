package kubeapi

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

var errUnsafeEntry = errors.New("unsafe archive entry")

// extract writes the regular files and directories of a tar.gz into dst,
// which must be a new empty directory. Entries whose names are absolute or
// climb out of dst, links and special files are refused.
func extract(archive []byte, dst string) error {
	zr, err := gzip.NewReader(bytes.NewReader(archive))
	if err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := filepath.FromSlash(hdr.Name)
		if !filepath.IsLocal(name) {
			return fmt.Errorf("%w: %q", errUnsafeEntry, hdr.Name)
		}
		target := filepath.Join(dst, name)
		switch hdr.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return err
			}
			if err := writeNew(target, tr); err != nil {
				return err
			}
		default:
			return fmt.Errorf("%w: %q has type %q", errUnsafeEntry, hdr.Name, hdr.Typeflag)
		}
	}
}

// writeNew creates path, which must not exist yet, with r's contents.
func writeNew(path string, r io.Reader) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
