// Package project finds the projects of a repository: the units that are
// linted, planned and applied on their own.
//
// Discover walks a tree (skipping dot-directories, node_modules, vendor,
// Helm charts and the exclude globs, like the manifest loader) and parses
// every kustomization it meets (kustomization.yaml, .yml, Kustomization),
// only for the paths it names: resources, bases, components, crds,
// patches of every kind, generator files, replacements, generators and
// transformers. Those references make a graph, and:
//
//   - a kustomize project is every kustomization that no other
//     kustomization of the tree references and that is not a Component
//     (kind: Component). Overlays are projects; the bases they use and the
//     Components are not, and are never built alone. A base nobody uses
//     is a project, and so is the first kustomization (in walk order) of a
//     reference cycle no top reaches, so that kustomize reports the cycle.
//   - a manifests project is the top-most directory holding manifest files
//     (.yaml, .yml, .json with a Kubernetes object: apiVersion and kind)
//     that are outside every kustomization's reach: not in the directory
//     tree of a kustomization (kustomize reads only there, so a patch
//     left unreferenced in overlays/prod/patches is no manifest either)
//     and not referenced by one (patches and component files are never
//     manifests on their own). Kustomizations below a kustomization are
//     still found: one at the root hides no nested overlay. Its files are
//     those manifest files in its tree. The granularity is the top-most
//     directory so that a directory of plain manifests split in
//     subdirectories (platform/monitoring, platform/ingress) is one
//     project, as it is deployed, while siblings with no files above them
//     (teams/a, teams/b) are separate ones.
//
// A project's Files are every file it reads, computed from the graph
// without building: for a kustomization its own file, the files it
// references and, recursively, those of its bases and components. They
// say which projects a change touches.
package project
