package podrefs

import (
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      serviceAccountName: web
      imagePullSecrets:
        - name: ghcr-pull
      initContainers:
        - name: migrate
          envFrom:
            - secretRef: {name: db-credentials}
      containers:
        - name: web
          env:
            - name: STRIPE_KEY
              valueFrom:
                secretKeyRef: {name: stripe, key: api-key}
            - name: FEATURE
              valueFrom:
                configMapKeyRef: {name: flags, key: feature, optional: true}
          envFrom:
            - configMapRef: {name: web-config}
      volumes:
        - name: tls
          secret: {secretName: web-tls}
        - name: maybe
          secret: {secretName: extra, optional: true}
        - name: data
          persistentVolumeClaim: {claimName: web-data}
        - name: all
          projected:
            sources:
              - configMap: {name: kube-root-ca.crt}
              - secret: {name: bundle}
`

func TestRefs(t *testing.T) {
	var obj map[string]any
	if err := yaml.Unmarshal([]byte(deployment), &obj); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range Refs("apps", "Deployment", obj) {
		got = append(got, r.Kind+"/"+r.Name+" at "+strings.Join(r.Path, "."))
	}
	want := []string{
		"ServiceAccount/web at spec.template.spec.serviceAccountName",
		"Secret/ghcr-pull at spec.template.spec.imagePullSecrets.0.name",
		"Secret/db-credentials at spec.template.spec.initContainers.0.envFrom.0.secretRef.name",
		"Secret/stripe at spec.template.spec.containers.0.env.0.valueFrom.secretKeyRef.name",
		"ConfigMap/web-config at spec.template.spec.containers.0.envFrom.0.configMapRef.name",
		"Secret/web-tls at spec.template.spec.volumes.0.secret.secretName",
		"PersistentVolumeClaim/web-data at spec.template.spec.volumes.2.persistentVolumeClaim.claimName",
		"Secret/bundle at spec.template.spec.volumes.3.projected.sources.1.secret.name",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if Refs("", "ConfigMap", obj) != nil {
		t.Error("a ConfigMap has no pod template")
	}
}

// All keeps the references marked optional, marked so, the others as Refs
// gives them.
func TestAll(t *testing.T) {
	var obj map[string]any
	if err := yaml.Unmarshal([]byte(deployment), &obj); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range All("apps", "Deployment", obj) {
		if r.Optional {
			got = append(got, r.Kind+"/"+r.Name+" (optional) at "+strings.Join(r.Path, "."))
		}
	}
	want := []string{
		"ConfigMap/flags (optional) at spec.template.spec.containers.0.env.1.valueFrom.configMapKeyRef.name",
		"Secret/extra (optional) at spec.template.spec.volumes.1.secret.secretName",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n, m := len(All("apps", "Deployment", obj)), len(Refs("apps", "Deployment", obj)); n != m+2 {
		t.Errorf("All gives %d references, Refs %d: want 2 more", n, m)
	}
}

func TestProvides(t *testing.T) {
	for _, tc := range []struct {
		group, kind, doc string
		want             Key
	}{
		{"", "Secret", "metadata: {name: db}", Key{Secret, "shop", "db"}},
		{"", "ConfigMap", "metadata: {name: cfg, namespace: other}", Key{ConfigMap, "other", "cfg"}},
		{"bitnami.com", "SealedSecret", "metadata: {name: db}\nspec: {template: {metadata: {name: db-real}}}", Key{Secret, "shop", "db-real"}},
		{"external-secrets.io", "ExternalSecret", "metadata: {name: stripe}\nspec: {target: {name: stripe-keys}}", Key{Secret, "shop", "stripe-keys"}},
		{"external-secrets.io", "ExternalSecret", "metadata: {name: stripe}", Key{Secret, "shop", "stripe"}},
	} {
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(tc.doc), &obj); err != nil {
			t.Fatal(err)
		}
		if got := Provides(tc.group, tc.kind, "shop", obj); len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s: %v, want %v", tc.kind, got, tc.want)
		}
	}
}
