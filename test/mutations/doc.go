// Package mutations is the differential test of lint against the API
// server (docs/lint-differential.md): Generate mutates valid objects of the
// 20 most common kinds in one place each (bases_*.go, classes_*.go);
// ServerVerdicts sends them to a real kube-apiserver as dry-run creates;
// LintVerdicts and KubeconformVerdicts judge them offline; Table and
// Markdown compare each tool with the server per mutation class.
// TestIntegrationDifferential runs it all against bin/testcluster.
package mutations
