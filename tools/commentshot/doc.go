// Command commentshot makes docs/plan-comment.png, the picture of kubeplan's
// pull-request comment in the README (`make screenshot`).
//
// It plans a representative change for real: it starts bin/testcluster,
// applies a first version of a small shop (a Deployment, a Secret, config,
// a Service and a few objects that stay the same) with bin/kubeplan, scales
// the Deployment by hand with kubectl (drift), then runs
// `kubeplan plan --output markdown` on a second version that adds objects,
// changes the image and a Secret value, and leaves one ConfigMap out (a
// prune). The markdown is turned into HTML the way GitHub does
// (GitHub-flavoured markdown: tables, raw <details>), dressed as a comment
// with a stylesheet of our own, and photographed by headless Chromium.
//
// Chromium is needed only here (apt-get install chromium); CI does not run
// this program.
package main
