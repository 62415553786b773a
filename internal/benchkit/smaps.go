package benchkit

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// StartedMemory starts bin with args in dir, its standard input held open
// (a command that reads it, such as `kubeplan lint -`, waits), and after a
// second reads its /proc/PID/smaps_rollup: each field in KiB by name
// ("Rss", "Pss_Anon", "Pss_File", "FilePmdMapped", ...). The process ends
// when its input is closed.
func StartedMemory(bin string, args []string, dir string) (map[string]int64, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer func() {
		in.Close()
		_ = cmd.Wait()
	}()
	time.Sleep(time.Second) // started and waiting on its input
	f, err := os.Open(fmt.Sprintf("/proc/%d/smaps_rollup", cmd.Process.Pid))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]int64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 2 || !strings.HasSuffix(fs[0], ":") {
			continue
		}
		if v, err := strconv.ParseInt(fs[1], 10, 64); err == nil {
			out[strings.TrimSuffix(fs[0], ":")] = v
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if _, ok := out["Rss"]; !ok {
		return nil, fmt.Errorf("%s: no Rss line in smaps_rollup", bin)
	}
	return out, nil
}
