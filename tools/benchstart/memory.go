package main

import (
	"debug/elf"

	"github.com/kubeplan/kubeplan/internal/benchkit"
)

// startMemoryKiB is where a process's resident memory is, in KiB: all of
// it, anonymous, the binary's own pages (those mapped as huge pages
// apart), and the size of the binary's text and read-only data.
type startMemoryKiB struct{ rss, anon, file, pmd, textRO int64 }

// startMemory reads it for kubeplan once started: `kubeplan lint -` waits
// on its input, its /proc/PID/smaps_rollup read meanwhile.
func startMemory(bin, dir string) (startMemoryKiB, error) {
	m, err := benchkit.StartedMemory(bin, []string{"lint", "-"}, dir)
	if err != nil {
		return startMemoryKiB{}, err
	}
	out := startMemoryKiB{rss: m["Rss"], anon: m["Pss_Anon"], file: m["Pss_File"], pmd: m["FilePmdMapped"]}
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
	return out, nil
}
