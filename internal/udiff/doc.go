// Package udiff computes line-based unified diffs ("diff -u") of two texts.
//
// The edit script is a shortest one (Myers' O(ND) algorithm in linear space,
// after discarding lines that occur on one side only), so the output is
// minimal, deterministic, and fast on large inputs that differ a little.
//
// It knows nothing of Kubernetes: plan turns objects into the texts it
// compares, and render shows the result.
package udiff
