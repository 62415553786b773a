// Package guardtest runs the tests of guard rules (internal/guard) that
// kubeplan policy test finds beside the admission policies' tests: files
// named kubeplan-guard-test.yaml (apiVersion kubeplan.dev/v1alpha1, kind
// GuardTest), each naming rule files and/or a kubeplan.yaml, and cases of
// a plan's changes with the exact verdicts expected. Every file is read
// confined to the checkout, as lint/admission reads its tests. The outcome
// is admission's TestReport, so one view shows both kinds of test.
package guardtest
