package plan

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

func TestSummarizeGroupsOneRootCause(t *testing.T) {
	var es Errors
	refused := errors.New("dial tcp 10.0.0.1:443: connect: connection refused")
	for i := 1; i <= 311; i++ {
		name := fmt.Sprintf("cm-%d", i)
		es = append(es, &ObjectError{Ref: Ref{Version: "v1", Kind: "ConfigMap", Name: name}, Source: Source{File: "cms.yaml", Line: i, Col: 1},
			Err: fmt.Errorf("dry-run: %w", &url.Error{Op: "Patch", URL: "https://10.0.0.1:443/api/v1/namespaces/ns/configmaps/" + name + "?dryRun=All", Err: refused})})
	}
	es = append(es, &ObjectError{Ref: Ref{Group: "apps", Version: "v1", Kind: "Deployment", Name: "web"}, Source: Source{File: "web.yaml", Line: 1, Col: 1},
		Err: errors.New("the server refused it: spec.replicas: Invalid value: -1")})
	got := es.Error()
	want := "312 object(s) cannot be planned:\n" +
		"  311 objects failed: dial tcp 10.0.0.1:443: connect: connection refused (https://10.0.0.1:443); first: configmap/cm-1 (cms.yaml:1:1)\n" +
		"  web.yaml:1:1: deployment.apps/web: the server refused it: spec.replicas: Invalid value: -1"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if strings.Count(got, "\n") != 2 {
		t.Errorf("%d lines", strings.Count(got, "\n")+1)
	}
}
