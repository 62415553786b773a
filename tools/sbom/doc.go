// Command sbom writes an SPDX 2.3 JSON software bill of materials for a Go
// binary from the module list the Go toolchain embeds in it (what `go
// version -m` prints): the main module and every module linked in, with
// versions, package URLs and the Go version. It needs no network and no
// syft; the release build runs it for each binary (.goreleaser.yaml).
//
//	go run ./tools/sbom -o kubeplan.spdx.json dist/kubeplan_linux_amd64_v1/kubeplan
package main
