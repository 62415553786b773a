// Package manifest is the core of manifest loading: the Object model that
// remembers where every field came from (file, document index,
// line:column), the Problem and Pos values that report bad input, and the
// parsing of YAML streams (a fast path for plain documents, yaml.v3 for
// the rest), SOPS-encrypted files included.
//
// Parsing never panics on bad input. Problems with the input itself
// (invalid YAML, duplicate keys, alias bombs, binary files, documents that
// are not objects) are returned as *Problem values carrying file:line:col,
// so lint can report them beside schema and policy findings; a file or a
// whole load parses within a budget of work (budget.go).
//
// The packages below it build on this core and are never imported by it:
// manifest/helm renders charts, manifest/kustomize builds kustomizations
// (with their helmCharts through manifest/helm), and manifest/loader turns
// paths (files, directories, standard input, kustomizations, charts) into
// Objects: Load and Collect are there. The exported helpers that only they
// use (ParseFileContext, Chunk, SplitDocuments, NewDecoder, DecodeYAML,
// Object.Tree, Blame, MaybeSOPS, DecryptFlat...) are their extension API,
// not a way for other packages to parse.
//
// Nothing outside the input is read (internal/confine, through files.go):
// only regular files of at most MaxFileBytes are opened, and a refusal is
// an error wrapping ErrRefused that names the file and where it points.
// This package never walks directories, renders a chart, builds a
// kustomization or reaches the network.
package manifest
