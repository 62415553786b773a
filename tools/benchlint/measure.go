package main

import (
	"github.com/kubeplan/kubeplan/internal/benchkit"
)

// The benchmark measures each tool with benchkit.
type (
	tool   = benchkit.Tool
	sample = benchkit.Sample
)
