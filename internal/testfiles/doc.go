// Package testfiles finds the test files of kubeplan's test runners
// (kubeplan policy test, kubeplan health test) under a directory.
package testfiles
