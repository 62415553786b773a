package testkube

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// AuditEvent is the part of an audit.k8s.io/v1 Event that the ordering
// tests and bench-plan-waves read from a testcluster's audit log (started
// with TESTCLUSTER_AUDIT_LOG=1; testcluster/README.md).
type AuditEvent struct {
	Verb       string `json:"verb"`
	RequestURI string `json:"requestURI"`
	User       struct {
		Username string `json:"username"`
	} `json:"user"`
	UserAgent string `json:"userAgent"`
	ObjectRef struct {
		Resource    string `json:"resource"`
		Namespace   string `json:"namespace"`
		Name        string `json:"name"`
		Subresource string `json:"subresource"`
	} `json:"objectRef"`
	ResponseStatus struct {
		Code int `json:"code"`
	} `json:"responseStatus"`
	Received time.Time `json:"requestReceivedTimestamp"`
	Done     time.Time `json:"stageTimestamp"`
}

// Key is "resource/name" of the object written.
func (e AuditEvent) Key() string { return e.ObjectRef.Resource + "/" + e.ObjectRef.Name }

// Write reports a successful write that changes the cluster: not a
// dry-run, not refused.
func (e AuditEvent) Write() bool {
	return e.ResponseStatus.Code < 300 && !strings.Contains(e.RequestURI, "dryRun=")
}

// KubeplanWrite reports a successful, real (not dry-run) write to a named
// object (not a subresource) by kubeplan: the admin user, but neither
// kubectl nor the simulated node, which shares that user.
func (e AuditEvent) KubeplanWrite() bool {
	return e.User.Username == "kubernetes-admin" && !strings.HasPrefix(e.UserAgent, "testcluster/") && !strings.HasPrefix(e.UserAgent, "kubectl/") &&
		e.ObjectRef.Name != "" && e.ObjectRef.Subresource == "" && e.Write()
}

// ReadAudit reads the events of the audit log at path from byte offset
// on, in the order the API server answered the requests.
func ReadAudit(path string, offset int64) ([]AuditEvent, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return nil, err
	}
	var out []AuditEvent
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var e AuditEvent
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, e)
	}
	return out, sc.Err()
}
