// Command binsize measures what each major dependency of kubeplan (helm,
// the apiserver's CEL and admission, kustomize, go-git, client-go,
// prometheus, kubeconform, the k8s.io/api types) adds to its binary, three
// ways in one run: the size of a generated main that refers to the
// exported API of every kubeplan package but those that depend on the
// group, beside the same main for all of them (as big as bin/kubeplan);
// the group's share of the symbols of the real bin/kubeplan; and the size
// and start RSS (/proc/PID/smaps_rollup) of a main that links only the
// group and waits on its input.
//
//	make bench-size   # go run ./tools/binsize [-doc docs/benchmarks.md]
package main
