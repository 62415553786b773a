package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/kubeplan/kubeplan/internal/benchkit"
)

// startRSS is the median over runs of the resident memory, in KiB, of bin
// with args once started and waiting on its input
// (/proc/PID/smaps_rollup, as tools/benchstart reads it).
func startRSS(bin string, args []string, dir string, runs int) (int64, error) {
	var xs []float64
	for range runs {
		kib, err := rssOnce(bin, args, dir)
		if err != nil {
			return 0, err
		}
		xs = append(xs, float64(kib))
	}
	return int64(benchkit.Median(xs)), nil
}

func rssOnce(bin string, args []string, dir string) (int64, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	in, err := cmd.StdinPipe()
	if err != nil {
		return 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer func() {
		in.Close()
		_ = cmd.Wait()
	}()
	time.Sleep(time.Second) // started and waiting on its input
	f, err := os.Open(fmt.Sprintf("/proc/%d/smaps_rollup", cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fs := strings.Fields(sc.Text()); len(fs) >= 2 && fs[0] == "Rss:" {
			return strconv.ParseInt(fs[1], 10, 64)
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("%s: no Rss line in smaps_rollup", bin)
}
