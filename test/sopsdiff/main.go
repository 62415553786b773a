package main

import (
	"fmt"
	"os"

	"github.com/kubeplan/kubeplan/internal/benchkit"
)

// Sops is the sops CLI the suite compares against.
var Sops = benchkit.GoTool{Module: "github.com/getsops/sops/v3", Pkg: "github.com/getsops/sops/v3/cmd/sops", Version: "v3.13.3", Bin: ".bench/sops/bin/sops"}

func main() {
	root, err := benchkit.ModuleRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "sopsdiff:", err)
		os.Exit(1)
	}
	bin, err := Sops.Install(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "sopsdiff:", err)
		os.Exit(1)
	}
	fmt.Println(bin)
}
