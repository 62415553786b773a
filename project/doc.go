// Package project finds the projects of a repository: the units that are
// linted, planned and applied on their own.
//
// Discover walks a tree (skipping dot-directories, node_modules, vendor
// and the exclude globs, like the manifest loader, and never walking into
// a Helm chart) and parses every kustomization it meets
// (kustomization.yaml, .yml, Kustomization), only for the paths it names:
// resources, bases, components, crds, patches of every kind, generator
// files, replacements, generators and transformers, and the local charts
// and values files of helmCharts:. Those references make a graph, and:
//
//   - a helm project is every directory holding Chart.yaml (the root too)
//     that no kustomization renders with helmCharts: (from its chartHome,
//     default charts/): that chart is the kustomization's, and its files
//     are among the kustomization's. A chart under another chart's
//     charts/ is a subchart, never walked into. Its Files are every file
//     under the chart directory; Helm.Chart is where the chart is. Load
//     adds the settings of the entry's helm: key (values files, which
//     join Files, set, release name, CRDs), and lets two named entries
//     declare one chart twice (one per environment); a values file only
//     other projects of the chart name is not in a project's Files, and
//     ChangedSince does not count it as a change below its directory.
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
// say which projects a change touches (ChangedSince, with the changed
// paths from package source).
//
// project never builds a kustomization, renders a chart or loads objects
// (manifest does), and never applies settings from the command line
// (workspace does).
package project
