package main

import (
	"net/http"
	"net/url"
	"testing"
)

const kubectlDiffOutput = `diff -u -N /tmp/LIVE-1/v1.ConfigMap.bench.a /tmp/MERGED-2/v1.ConfigMap.bench.a
--- /tmp/LIVE-1/v1.ConfigMap.bench.a	2026-11-30 00:21:24.314828814 +0000
+++ /tmp/MERGED-2/v1.ConfigMap.bench.a	2026-11-30 00:21:24.314828814 +0000
@@ -4,8 +4,6 @@
 kind: ConfigMap
 metadata:
   creationTimestamp: "2026-11-30T00:21:24Z"
-  labels:
-    applyset.kubernetes.io/part-of: applyset-y57-v1
   name: a
diff -u -N /tmp/LIVE-1/apps.v1.Deployment.bench.web /tmp/MERGED-2/apps.v1.Deployment.bench.web
--- /tmp/LIVE-1/apps.v1.Deployment.bench.web	2026-11-30 00:21:24.322828814 +0000
+++ /tmp/MERGED-2/apps.v1.Deployment.bench.web	2026-11-30 00:21:24.322828814 +0000
@@ -7,7 +7,6 @@
   labels:
     app: web
-    applyset.kubernetes.io/part-of: applyset-y57-v1
   name: web
@@ -20,1 +20,1 @@
-  replicas: 2
+  replicas: 3
`

func TestParseKubectlDiff(t *testing.T) {
	o := parseKubectlDiff([]byte(kubectlDiffOutput))
	if o.Changed != 2 || o.LabelOnly != 1 {
		t.Errorf("changed %d, label only %d; want 2 and 1", o.Changed, o.LabelOnly)
	}
	if o := parseKubectlDiff(nil); o.Changed != 0 || o.Example != "" {
		t.Errorf("empty output: %+v", o)
	}
}

func TestParseKubeplanPlan(t *testing.T) {
	o, err := parseKubeplanPlan([]byte(`{"version":1,"summary":{"add":1,"change":2,"prune":3,"unchanged":1194,"drifted":0},
	"changes":[{"action":"create","diff":"+a"},{"action":"unchanged"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if o.Changed != 6 || o.Unchanged != 1194 || o.Example != "+a" {
		t.Errorf("%+v", o)
	}
	if _, err := parseKubeplanPlan([]byte("Plan: 0 to add")); err == nil {
		t.Error("text output accepted as JSON")
	}
}

func TestClassify(t *testing.T) {
	req := func(method, u string) *http.Request {
		p, err := url.Parse("https://127.0.0.1:6443" + u)
		if err != nil {
			t.Fatal(err)
		}
		return &http.Request{Method: method, URL: p}
	}
	for _, tc := range []struct {
		method, url, want string
	}{
		{"POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", "access reviews (SelfSubjectAccessReview)"},
		{"PATCH", "/api/v1/namespaces/bench/configmaps/a?dryRun=All&fieldManager=kubeplan", "PATCH dry-run (server-side apply)"},
		{"GET", "/api/v1/namespaces/bench/configmaps", "LIST live objects"},
		{"GET", "/api/v1/namespaces/bench/configmaps?labelSelector=applyset.kubernetes.io%2Fpart-of%3Dx", "LIST ApplySet members (label selector)"},
		{"GET", "/api/v1/namespaces/bench/configmaps/gitops-applyset", "GET one object"},
		{"GET", "/apis/apps/v1", "GET discovery"},
	} {
		if got := classify(req(tc.method, tc.url)); got != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.method, tc.url, got, tc.want)
		}
	}
}
