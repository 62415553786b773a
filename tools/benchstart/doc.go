// Command benchstart measures what kubeplan pays at start: `kubeplan lint`
// of one small file (what a pre-commit hook runs on a one-file change)
// against `kubeconform -strict` on the same file, alternating, in one run,
// beside the floors of the same binaries (`kubeplan version`, which only
// starts; `kubeconform -v`), and where kubeplan's resident memory is at
// start (/proc/PID/smaps_rollup: anonymous memory and the binary's own
// pages, those mapped as huge pages apart).
//
//	make bench-start   # go run ./tools/benchstart [-doc docs/benchmarks.md]
package main
