package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/kubeplan/kubeplan/internal/benchkit"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// Exit statuses.
const (
	exitOK          = 0
	exitFailed      = 1   // a step or a check failed
	exitUsage       = 2   // the demo could not start: a flag, a missing binary or tool
	exitInterrupted = 130 // SIGINT or SIGTERM; everything was cleaned up
)

func main() {
	os.Exit(demoMain(os.Args[1:], os.Stdout, os.Stderr))
}

// demoMain runs the demo: the story goes to stdout, what it does to the
// machine (work directory, cluster process, cleanup) and errors to stderr.
func demoMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	kubeplanBin := fs.String("kubeplan", "", "the kubeplan binary (default: bin/kubeplan in the module, built by make build)")
	testclusterBin := fs.String("testcluster", "", "the testcluster binary (default: $KUBEPLAN_TESTCLUSTER, else bin/testcluster, built by make testcluster)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: go run ./tools/demo [flags]  (make demo builds the binaries first)\n\nRuns kubeplan's acceptance story on a local cluster, then removes everything it made.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	bins, err := binaries(*kubeplanBin, *testclusterBin)
	if err != nil {
		fmt.Fprintf(stderr, "demo: %v\n", err)
		return exitUsage
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	start := time.Now()
	p := newPrinter(stdout)
	s, err := newSession(p, stderr, bins["kubeplan"], bins["testcluster"])
	if err != nil {
		fmt.Fprintf(stderr, "demo: %v\n", err)
		return exitFailed
	}
	n, err := runStories(ctx, s, stories)
	took := time.Since(start).Round(100 * time.Millisecond)
	interrupted := ctx.Err() != nil
	switch {
	case interrupted:
		fmt.Fprintf(stderr, "demo: interrupted; stopping the cluster and removing %s\n", s.work)
	case err != nil:
		fmt.Fprintf(stderr, "demo: %v\n", err)
	default:
		p.line(fmt.Sprintf("\nAll %d steps done and checked in %s.", n, took))
	}
	if cerr := s.close(); cerr != nil {
		fmt.Fprintf(stderr, "demo: cleaning up: %v\n", cerr)
		if err == nil {
			err = cerr
		}
	} else {
		fmt.Fprintf(stderr, "demo: cluster stopped, %s removed\n", s.work)
	}
	switch {
	case interrupted:
		return exitInterrupted
	case err != nil:
		return exitFailed
	}
	return exitOK
}

// runStories runs every step of the stories, numbered in one sequence, and
// returns how many steps passed.
func runStories(ctx context.Context, s *session, stories []story) (int, error) {
	n := 0
	for i, st := range stories {
		if i > 0 {
			s.p.line("")
		}
		s.dir = s.work
		s.p.title(st.title)
		for _, l := range st.intro {
			s.p.line(l)
		}
		for _, sp := range st.steps {
			if err := ctx.Err(); err != nil {
				return n, err
			}
			if err := s.runStep(ctx, n+1, sp); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

// binaries finds kubeplan and testcluster (absolute paths), and checks that
// git and kubectl are on PATH.
func binaries(kubeplanBin, testclusterBin string) (map[string]string, error) {
	if kubeplanBin == "" {
		root, err := benchkit.ModuleRoot()
		if err != nil {
			return nil, err
		}
		kubeplanBin = filepath.Join(root, "bin", "kubeplan")
	}
	if testclusterBin == "" {
		p, err := testkube.Binary()
		if err != nil {
			return nil, err
		}
		testclusterBin = p
	}
	bins := map[string]string{"kubeplan": kubeplanBin, "testcluster": testclusterBin}
	for name, p := range bins {
		abs, err := filepath.Abs(p)
		if err == nil {
			_, err = os.Stat(abs)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w (make demo builds it: make build testcluster)", name, err)
		}
		bins[name] = abs
	}
	for _, tool := range []string{"git", "kubectl"} {
		if _, err := exec.LookPath(tool); err != nil {
			return nil, fmt.Errorf("%s is not on PATH: the demo runs it (git for the repository, kubectl for the hand edits)", tool)
		}
	}
	return bins, nil
}
