package config

import (
	"reflect"
	"strings"
	"testing"
)

const helmConfig = `projects:
  - name: shop-dev
    path: charts/shop
    namespace: shop-dev
    helm:
      values: [charts/shop/values-dev.yaml, envs/dev/extra.yaml]
      set:
        image.tag: "2.4.2"
        cache.enabled: false
      includeCRDs: true
  - name: shop-prod
    path: charts/shop
    helm:
      chart: dist/shop-0.3.0.tgz
      releaseName: shop
      set: ["replicaCount=3", "a.b=c=d"]
  - path: charts/other
    helm: ~
`

func TestParseHelm(t *testing.T) {
	c, err := Parse("kubeplan.yaml", []byte(helmConfig))
	if err != nil {
		t.Fatal(err)
	}
	dev, prod, other := c.Projects[0].Helm, c.Projects[1].Helm, c.Projects[2].Helm
	if dev == nil || prod == nil || other == nil {
		t.Fatalf("helm: %+v %+v %+v", dev, prod, other)
	}
	if !reflect.DeepEqual(dev.Values, []string{"charts/shop/values-dev.yaml", "envs/dev/extra.yaml"}) ||
		!reflect.DeepEqual(dev.Set, []string{"image.tag=2.4.2", "cache.enabled=false"}) || !dev.IncludeCRDs || dev.Chart != "" || dev.ReleaseName != "" {
		t.Errorf("shop-dev helm: %+v", dev)
	}
	if c.At(dev.ValuesPos[1]) != "kubeplan.yaml:6:45" || c.At(c.Projects[0].Pos["helm"]) != "kubeplan.yaml:6:7" {
		t.Errorf("positions: values[1] at %s, helm at %s", c.At(dev.ValuesPos[1]), c.At(c.Projects[0].Pos["helm"]))
	}
	if prod.Chart != "dist/shop-0.3.0.tgz" || prod.ReleaseName != "shop" || !reflect.DeepEqual(prod.Set, []string{"replicaCount=3", "a.b=c=d"}) {
		t.Errorf("shop-prod helm: %+v", prod)
	}
	if other.Chart != "" || other.Values != nil || other.Set != nil {
		t.Errorf("empty helm: %+v", other)
	}
}

func TestParseHelmErrors(t *testing.T) {
	for _, tc := range []struct{ name, config, want string }{
		{"unknown key", "projects:\n  - path: c\n    helm: {valuesFiles: [a.yaml]}\n", `kubeplan.yaml:3:12: unknown key "valuesFiles" in projects[0].helm`},
		{"not a mapping", "projects:\n  - path: c\n    helm: [a]\n", "kubeplan.yaml:3:11: projects[0].helm: want a mapping, got a list"},
		{"values not a list", "projects:\n  - path: c\n    helm:\n      values: a.yaml\n", `kubeplan.yaml:4:15: projects[0].helm.values: want a list of strings, got "a.yaml"`},
		{"set without =", "projects:\n  - path: c\n    helm:\n      set: [replicaCount]\n", `kubeplan.yaml:4:13: projects[0].helm.set[0] "replicaCount": want "key=value"`},
		{"set value a mapping", "projects:\n  - path: c\n    helm:\n      set: {image: {tag: x}}\n", "kubeplan.yaml:4:20: projects[0].helm.set.image: want a string, got a mapping"},
		{"set a string", "projects:\n  - path: c\n    helm: {set: a=b}\n", `kubeplan.yaml:3:17: projects[0].helm.set: want a mapping of key to value or a list of "key=value", got "a=b"`},
		{"includeCRDs not bool", "projects:\n  - path: c\n    helm: {includeCRDs: yes please}\n", `kubeplan.yaml:3:25: projects[0].helm.includeCRDs: want true or false`},
		{"bad release name", "projects:\n  - path: c\n    helm: {releaseName: Shop_1}\n", `kubeplan.yaml:3:25: projects[0].helm.releaseName "Shop_1"`},
		{"glob", "projects:\n  - path: charts/*\n    helm: {includeCRDs: true}\n", "kubeplan.yaml:3:11: projects[0].helm: a glob path (charts/*) matches several projects"},
		{"defaults", "defaults:\n  helm: {}\n", `kubeplan.yaml:2:3: unknown key "helm" in defaults`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("kubeplan.yaml", []byte(tc.config))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v\nwant %s", err, tc.want)
			}
		})
	}
}
