package main

import (
	"bufio"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// startMemoryKiB is where a process's resident memory is, in KiB: all of
// it, anonymous, the binary's own pages (those mapped as huge pages
// apart), and the size of the binary's text and read-only data.
type startMemoryKiB struct{ rss, anon, file, pmd, textRO int64 }

// startMemory reads it for kubeplan once started: `kubeplan lint -` waits
// on its input, its /proc/PID/smaps_rollup read meanwhile.
func startMemory(bin, dir string) (startMemoryKiB, error) {
	var out startMemoryKiB
	cmd := exec.Command(bin, "lint", "-")
	cmd.Dir = dir
	in, err := cmd.StdinPipe()
	if err != nil {
		return out, err
	}
	if err := cmd.Start(); err != nil {
		return out, err
	}
	defer func() {
		in.Close()
		_ = cmd.Wait()
	}()
	time.Sleep(time.Second) // started and waiting on its input
	f, err := os.Open(fmt.Sprintf("/proc/%d/smaps_rollup", cmd.Process.Pid))
	if err != nil {
		return out, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 2 {
			continue
		}
		v, _ := strconv.ParseInt(fs[1], 10, 64)
		switch fs[0] {
		case "Rss:":
			out.rss = v
		case "Pss_Anon:":
			out.anon = v
		case "Pss_File:":
			out.file = v
		case "FilePmdMapped:":
			out.pmd = v
		}
	}
	e, err := elf.Open(bin)
	if err != nil {
		return out, err
	}
	defer e.Close()
	for _, p := range e.Progs {
		if p.Type == elf.PT_LOAD && p.Flags&elf.PF_W == 0 {
			out.textRO += int64(p.Memsz) / 1024
		}
	}
	return out, sc.Err()
}
