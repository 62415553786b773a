package ghactions

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"
)

// Environment variables naming the files the runner reads after a step.
const (
	EnvOutput      = "GITHUB_OUTPUT"
	EnvStepSummary = "GITHUB_STEP_SUMMARY"
)

// Env looks up the environment a step runs in. Passing it, rather than
// reading os.Getenv, lets a caller (and tests running in parallel) say
// which environment a command sees.
type Env func(string) string

// OSEnv is the process environment.
var OSEnv Env = os.Getenv

// InActions reports whether the process runs in a GitHub Actions job.
func InActions() bool { return OSEnv.InActions() }

// InActions reports whether the environment is a GitHub Actions job.
func (e Env) InActions() bool { return e("GITHUB_ACTIONS") == "true" }

// WriteOutput writes one step output in the heredoc form
// "name<<DELIM\nvalue\nDELIM\n" with a fresh random delimiter.
func WriteOutput(w io.Writer, name, value string) error {
	delim, err := newDelimiter()
	if err != nil {
		return err
	}
	return writeOutput(w, name, value, delim)
}

func writeOutput(w io.Writer, name, value, delim string) error {
	if name == "" {
		return fmt.Errorf("github output: empty name")
	}
	if strings.Contains(name, delim) {
		return fmt.Errorf("github output %q: name contains the delimiter", name)
	}
	if strings.Contains(value, delim) {
		return fmt.Errorf("github output %q: value contains the delimiter", name)
	}
	// The heredoc form cannot carry a newline inside the name.
	if strings.ContainsAny(name, "\r\n") {
		return fmt.Errorf("github output %q: name contains a newline", name)
	}
	_, err := fmt.Fprintf(w, "%s<<%s\n%s\n%s\n", name, delim, value, delim)
	return err
}

// newDelimiter returns "ghadelimiter_" and 32 random hex digits, as
// @actions/core does with a UUID.
func newDelimiter() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("github output delimiter: %w", err)
	}
	return "ghadelimiter_" + hex.EncodeToString(b[:]), nil
}

// SetOutput appends one step output to the file named by $GITHUB_OUTPUT.
func SetOutput(name, value string) error { return OSEnv.SetOutput(name, value) }

// SetOutput appends one step output to the file named by $GITHUB_OUTPUT.
func (e Env) SetOutput(name, value string) error {
	return e.appendToEnvFile(EnvOutput, func(w io.Writer) error {
		return WriteOutput(w, name, value)
	})
}

// AppendStepSummary appends Markdown to the job summary file named by
// $GITHUB_STEP_SUMMARY. A newline is added when markdown does not end in one.
func AppendStepSummary(markdown string) error { return OSEnv.AppendStepSummary(markdown) }

// AppendStepSummary appends Markdown to the job summary file named by
// $GITHUB_STEP_SUMMARY in e.
func (e Env) AppendStepSummary(markdown string) error {
	if markdown != "" && !strings.HasSuffix(markdown, "\n") {
		markdown += "\n"
	}
	return e.appendToEnvFile(EnvStepSummary, func(w io.Writer) error {
		_, err := io.WriteString(w, markdown)
		return err
	})
}

func (e Env) appendToEnvFile(env string, write func(io.Writer) error) (err error) {
	path := e(env)
	if path == "" {
		return fmt.Errorf("$%s is not set (not running in GitHub Actions?)", env)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("open $%s: %w", env, err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("close $%s: %w", env, cerr)
		}
	}()
	if err := write(f); err != nil {
		return fmt.Errorf("write $%s: %w", env, err)
	}
	return nil
}
