// Command kubeplan brings the Terraform workflow to Kubernetes manifests kept
// in git: lint, plan, apply, status, and serve in a cluster.
//
// This package only wires: for each verb a cobra command parses its flags
// into workspace.Overrides and the engine's options, makes one engine call
// (lint.Check, run.Plan, run.Apply, run.ReadStatus, serve.Run, ...) and
// hands the result to one view (render, render/ghview). It owns the exit
// codes (root.go) and the question asked before apply (approve.go). It
// holds no logic and formats no data of its own. See ARCHITECTURE.md.
package main
