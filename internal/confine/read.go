package confine

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// MaxFileBytes bounds one input file, and standard input. It is checked
// before a file is read and enforced while reading, so that no input (a
// device, a growing file, an endless pipe) can exhaust memory.
const MaxFileBytes = 64 << 20

// CheckRegular refuses anything but a regular file of at most MaxFileBytes.
func CheckRegular(path string, fi fs.FileInfo) error {
	return checkRegular(path, fi, MaxFileBytes)
}

func checkRegular(path string, fi fs.FileInfo, limit int64) error {
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("reading %s: %w: it is %s, not a regular file", path, ErrRefused, modeName(fi.Mode()))
	}
	if fi.Size() > limit {
		return tooBig(path, limit)
	}
	return nil
}

// TooBig is the error for a file over MaxFileBytes.
func TooBig(path string) error { return tooBig(path, MaxFileBytes) }

func tooBig(path string, limit int64) error {
	return fmt.Errorf("reading %s: %w: it is over %s, more than kubeplan reads from one file", path, ErrRefused, size(limit))
}

func size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

func modeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a directory"
	}
	return "not a regular file (" + m.String() + ")"
}

// ReadFile reads path, which must resolve inside root (when root is not
// empty) to a regular file of at most MaxFileBytes. Nothing else is ever
// opened, so a FIFO cannot block and a device cannot be read.
func ReadFile(path, root string) ([]byte, error) {
	return ReadFileLimit(path, root, MaxFileBytes)
}

// ReadFileLimit is ReadFile with a limit of its own (a configuration file
// is far smaller than a set of manifests).
func ReadFileLimit(path, root string, limit int64) ([]byte, error) {
	real, err := Resolve(path, root)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if err := checkRegular(path, fi, limit); err != nil {
		return nil, err
	}
	// O_NONBLOCK: should a FIFO replace the file after Stat, opening it
	// must not wait for a writer; SameFile below then refuses it.
	f, err := os.OpenFile(real, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	defer f.Close()
	// The file may have been replaced since Stat: check what was opened.
	ofi, err := f.Stat()
	if err != nil || !os.SameFile(fi, ofi) {
		return nil, fmt.Errorf("reading %s: %w: it changed while being opened", path, ErrRefused)
	}
	return readSized(path, f, ofi.Size(), limit)
}

// readSized is readLimited for a regular file of size bytes (as Stat saw
// it): one buffer of that size, not io.ReadAll's doublings; a file that
// grew since is still read to its end and refused past limit.
func readSized(name string, f io.Reader, size, limit int64) ([]byte, error) {
	if size <= 0 || size > limit {
		return readLimited(name, f, limit)
	}
	data := make([]byte, 0, size+1) // +1: EOF is seen without growing
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
		if len(data) == cap(data) { // grew since Stat: read the rest the slow way
			rest, err := io.ReadAll(io.LimitReader(f, limit+1-int64(len(data))))
			if err != nil {
				return nil, fmt.Errorf("reading %s: %w", name, err)
			}
			if data = append(data, rest...); int64(len(data)) > limit {
				return nil, tooBig(name, limit)
			}
			return data, nil
		}
	}
}

// ReadLimited reads r to its end, refusing more than MaxFileBytes; name
// is what errors call it ("standard input").
func ReadLimited(name string, r io.Reader) ([]byte, error) {
	return readLimited(name, r, MaxFileBytes)
}

func readLimited(name string, r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if int64(len(data)) > limit {
		return nil, tooBig(name, limit)
	}
	return data, nil
}
