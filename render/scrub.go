package render

import (
	"bytes"
	"io"
	"sync"

	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/internal/sops"
)

// ScrubWriter is a writer that hides every value decrypted from SOPS
// (sops.Scrub) in what goes through it, whatever wrote it: a view, an
// error, a lint finding, a library's message. Once a value was decrypted
// it holds text back to the end of the line ("\n" or "\r", a progress
// bar's), so a value written in two pieces is still hidden; Flush writes
// what is held. Before anything was decrypted it writes through.
type ScrubWriter struct {
	mu      sync.Mutex
	w       io.Writer
	pending []byte
}

// NewScrubWriter returns a ScrubWriter writing to w.
func NewScrubWriter(w io.Writer) *ScrubWriter { return &ScrubWriter{w: w} }

// Write writes the complete lines of p, scrubbed, and holds the rest. It
// reports len(p) written unless w fails.
func (s *ScrubWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.pending) == 0 && !sops.Any() {
		return s.w.Write(p)
	}
	s.pending = append(s.pending, p...)
	i := bytes.LastIndexAny(s.pending, "\n\r")
	if i < 0 {
		return len(p), nil
	}
	line := sops.Scrub(string(s.pending[:i+1]))
	s.pending = append(s.pending[:0], s.pending[i+1:]...)
	if _, err := io.WriteString(s.w, line); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what is held, scrubbed: before a question that waits for an
// answer, and at the end.
func (s *ScrubWriter) Flush() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.pending) == 0 {
		return nil
	}
	line := sops.Scrub(string(s.pending))
	s.pending = s.pending[:0]
	_, err := io.WriteString(s.w, line)
	return err
}

// Unwrap returns the writer s writes to (whether it is a terminal).
func (s *ScrubWriter) Unwrap() io.Writer { return s.w }

// FlushingReader returns r that flushes ws before every read: a question
// written without a line break is shown before its answer is read.
func FlushingReader(r io.Reader, ws ...*ScrubWriter) io.Reader {
	if r == nil {
		return nil
	}
	return flushingReader{r, ws}
}

type flushingReader struct {
	r  io.Reader
	ws []*ScrubWriter
}

func (f flushingReader) Read(p []byte) (int, error) {
	for _, w := range f.ws {
		_ = w.Flush()
	}
	return f.r.Read(p)
}

// Commands returns the writer for kubeplan's own workflow commands under s
// (ghactions.CommandWriter of what s writes to), with what s holds written
// first and decrypted values hidden in the commands too (an annotation's
// message). A ::add-mask:: command must carry its value: it goes to
// Unwrap after Flush (ghview's unscrubbed).
func (s *ScrubWriter) Commands() io.Writer { return scrubbedCommands{s} }

type scrubbedCommands struct{ s *ScrubWriter }

// Flush writes what the ScrubWriter holds; with Unwrap it lets a
// ::add-mask:: command, which must carry its value, pass unscrubbed.
func (c scrubbedCommands) Flush() error { return c.s.Flush() }

// Unwrap is the command writer under the scrubbing.
func (c scrubbedCommands) Unwrap() io.Writer { return ghactions.CommandWriter(c.s.w) }

func (c scrubbedCommands) Write(p []byte) (int, error) {
	if err := c.s.Flush(); err != nil {
		return 0, err
	}
	if _, err := io.WriteString(ghactions.CommandWriter(c.s.w), sops.Scrub(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
