// Package bombcorpus writes the bomb corpus: YAML files shaped to cost the
// most memory per byte when parsed (many tiny documents, long flow
// sequences and maps, long block sequences, many short keys, deep flow
// nesting, a broken document repeated), each of a given size, with a file
// of ordinary objects beside them. Tests use it to prove that kubeplan
// refuses what it cannot load within its memory bound and loads the rest
// (testdata/bomb/README.md). It is a test library, never linked into
// kubeplan.
package bombcorpus
