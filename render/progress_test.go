package render

import (
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/apply"
)

func TestHealthProgress(t *testing.T) {
	var b strings.Builder
	p := HealthProgress(&b)
	var pending []apply.HealthResult
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		pending = append(pending, apply.HealthResult{Ref: obj("Deployment", "apps", n, "").Ref, Message: "0/1 available"})
	}
	p(pending[:1])
	p(pending)
	p(nil)
	want := "waiting for 1 object(s) to be healthy: deployment.apps/a (0/1 available)\n" +
		"waiting for 5 object(s) to be healthy: deployment.apps/a (0/1 available), deployment.apps/b (0/1 available), deployment.apps/c (0/1 available), and 2 more\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if HealthProgress(nil) != nil {
		t.Error("no writer: want no callback")
	}
}
