// Package healthtest runs the test files of `kubeplan health test`
// (kubeplan-health-test.yaml, kind: HealthTest): objects with a status,
// each with the outcome its health rule must give (current, inProgress,
// failed), under the rules the file writes, those of a kubeplan.yaml it
// names, or the built-in rules. It reads files inside the checkout only
// (internal/confine) and prints nothing: Report.WriteText does.
package healthtest
