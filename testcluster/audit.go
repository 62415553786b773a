package main

import (
	"os"
	"path/filepath"
)

// The opt-in audit log: the API server's own record of every write it
// received, for tests that check the order of requests.
const (
	auditLogFile    = "audit.log"
	auditPolicyFile = "audit-policy.yaml"
	// auditEnv turns the audit log on when --audit-log is not given, so a
	// test can ask for it through a launcher that passes fixed flags.
	auditEnv = "TESTCLUSTER_AUDIT_LOG"
)

// auditPolicy logs writes at Metadata level (who, what, when, the response
// code; never a request or response body, so no Secret value) once the
// response is complete, and nothing else.
const auditPolicy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived, ResponseStarted]
rules:
- level: Metadata
  verbs: [create, update, patch, delete, deletecollection]
- level: None
`

// auditDefault is the default of --audit-log: true when TESTCLUSTER_AUDIT_LOG is 1 or true.
func auditDefault() bool {
	v := os.Getenv(auditEnv)
	return v == "1" || v == "true"
}

// auditArgs writes DIR/audit-policy.yaml and returns the kube-apiserver
// flags that log to DIR/audit.log, one JSON audit.k8s.io/v1 Event a line.
func auditArgs(dir string) ([]string, error) {
	policy := filepath.Join(dir, auditPolicyFile)
	if err := os.WriteFile(policy, []byte(auditPolicy), 0o600); err != nil {
		return nil, err
	}
	return []string{
		"--audit-policy-file=" + policy,
		"--audit-log-path=" + filepath.Join(dir, auditLogFile),
		"--audit-log-format=json",
		// Blocking: an event is on disk before the response is sent, so a
		// reader that saw the response finds its event.
		"--audit-log-mode=blocking",
		"--audit-log-maxsize=0",
	}, nil
}
