package main

import "github.com/kubeplan/kubeplan/internal/benchkit"

// The benchmark measures commands and in-process loops with benchkit.
type (
	tool   = benchkit.Tool
	sample = benchkit.Sample
)
