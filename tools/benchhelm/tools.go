package main

import "github.com/kubeplan/kubeplan/internal/benchkit"

// The peers the benchmark compares against, built from the Go module proxy.
var (
	kubeconform = benchkit.Kubeconform
	helm        = benchkit.GoTool{Module: "helm.sh/helm/v4", Pkg: "helm.sh/helm/v4/cmd/helm", Version: "v4.3.1", Bin: ".bench/helm/bin/helm"}
)
