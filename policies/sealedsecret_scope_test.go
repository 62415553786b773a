package policies

import (
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/manifest"
)

// A SealedSecret as kubeseal writes it, for namespace shop-dev.
const sealed = `apiVersion: bitnami.com/v1alpha1
kind: SealedSecret
metadata:
  name: db-credentials
  namespace: shop-dev
%s
spec:
  encryptedData:
    DB_PASSWORD: AgBy3i4OJSWK+PiTySYZZA9rO43cGDEq5cGG0Xq3v2kBV6cB6Zt0aN7n6V7Ydq1Hq8Jb9Q==
  template:
    metadata:
      name: db-credentials
      namespace: shop-dev
    type: Opaque
`

func sealedObject(t *testing.T, annotations, namespace, name string) *manifest.Object {
	t.Helper()
	text := strings.Replace(sealed, "%s\n", annotations, 1)
	text = strings.Replace(text, "  namespace: shop-dev\n", "  namespace: "+namespace+"\n", 1)
	text = strings.Replace(text, "  name: db-credentials\n  namespace", "  name: "+name+"\n  namespace", 1)
	objs, probs := manifest.Parse("sealed.yaml", []byte(text))
	if len(probs) > 0 || len(objs) != 1 {
		t.Fatalf("%v", probs)
	}
	return objs[0]
}

func TestSealedSecretScope(t *testing.T) {
	for _, tc := range []struct {
		name, annotations, namespace, objName string
		want                                  []string // violation fields
	}{
		{"as sealed", "", "shop-dev", "db-credentials", nil},
		{"moved to another namespace", "", "shop-prod", "db-credentials", []string{"spec.template.metadata.namespace"}},
		{"renamed, strict", "", "shop-dev", "orders-db", []string{"spec.template.metadata.name"}},
		{"renamed, namespace-wide", "  annotations:\n    sealedsecrets.bitnami.com/namespace-wide: \"true\"\n", "shop-dev", "orders-db", nil},
		{"moved, namespace-wide", "  annotations:\n    sealedsecrets.bitnami.com/namespace-wide: \"true\"\n", "shop-prod", "db-credentials", []string{"spec.template.metadata.namespace"}},
		{"moved, cluster-wide", "  annotations:\n    sealedsecrets.bitnami.com/cluster-wide: \"true\"\n", "shop-prod", "orders-db", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vs := checkSealedSecretScope(sealedObject(t, tc.annotations, tc.namespace, tc.objName), Options{})
			var got []string
			for _, v := range vs {
				got = append(got, strings.Join(v.Path, "."))
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("violations at %v, want %v (%v)", got, tc.want, vs)
			}
		})
	}
	// Without metadata.namespace, the namespace it is applied to is -n.
	o := sealedObject(t, "", "shop-dev", "db-credentials")
	delete(o.Content["metadata"].(map[string]any), "namespace")
	o.Namespace = ""
	if vs := checkSealedSecretScope(o, Options{Namespace: "payments"}); len(vs) != 1 || !strings.Contains(vs[0].Message, `applied to namespace "payments"`) || !strings.Contains(vs[0].Message, "kubeseal --namespace payments") {
		t.Errorf("-n payments: %v", vs)
	}
}
