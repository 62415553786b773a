package manifest

import (
	"strings"
	"testing"
)

// toolConfigFiles are tools' configuration files as their tools document
// them; want is the line:col of each document's kind.
var toolConfigFiles = []struct {
	name, data string
	want       []Pos
}{
	{"kubeconfig", `apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t
    server: https://127.0.0.1:40427
  name: kind-dev
contexts:
- context:
    cluster: kind-dev
    user: kind-dev
  name: kind-dev
current-context: kind-dev
preferences: {}
users:
- name: kind-dev
  user:
    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t
    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQ==
`, []Pos{{2, 7}}},
	{"kind-config.yaml", `kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
name: dev
nodes:
- role: control-plane
  kubeadmConfigPatches:
  - |
    kind: InitConfiguration
    nodeRegistration:
      kubeletExtraArgs:
        node-labels: "ingress-ready=true"
  extraPortMappings:
  - containerPort: 80
    hostPort: 8080
- role: worker
`, []Pos{{1, 7}}},
	{"kind-old.yaml", "kind: Cluster\napiVersion: kind.sigs.k8s.io/v1alpha3\nnodes:\n- role: control-plane\n", []Pos{{1, 7}}},
	{"kubeadm.yaml", `apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
bootstrapTokens:
- token: abcdef.0123456789abcdef
  ttl: 24h0m0s
localAPIEndpoint:
  advertiseAddress: 10.0.0.10
  bindPort: 6443
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
kubernetesVersion: v1.33.0
controlPlaneEndpoint: cp.example.internal:6443
networking:
  podSubnet: 10.244.0.0/16
  serviceSubnet: 10.96.0.0/12
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: JoinConfiguration
discovery:
  bootstrapToken:
    apiServerEndpoint: cp.example.internal:6443
    token: abcdef.0123456789abcdef
    unsafeSkipCAVerification: true
---
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
cgroupDriver: systemd
---
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
mode: ipvs
`, []Pos{{2, 7}, {11, 7}, {19, 7}, {27, 7}, {31, 7}}},
	{"skaffold.yaml", `apiVersion: skaffold/v4beta11
kind: Config
metadata:
  name: web
build:
  artifacts:
  - image: web
manifests:
  rawYaml:
  - k8s/*.yaml
deploy:
  kubectl: {}
`, []Pos{{2, 7}}},
	{"kustomization.yaml", "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- deploy.yaml\n", []Pos{{2, 7}}},
	{"component.yaml", "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\npatches:\n- path: patch.yaml\n", []Pos{{2, 7}}},
	{"transformer.yaml", "apiVersion: builtin\nkind: PrefixSuffixTransformer\nmetadata:\n  name: prefix\nprefix: dev-\nfieldSpecs:\n- path: metadata/name\n", []Pos{{2, 7}}},
	{"fn-config.yaml", "apiVersion: fn.kpt.dev/v1alpha1\nkind: SetLabels\nmetadata:\n  name: labels\nlabels:\n  app: web\n", []Pos{{2, 7}}},
	{"inflator.yaml", `apiVersion: team.example.com/v1
kind: ChartInflator
metadata:
  name: notimportantname
  annotations:
    config.kubernetes.io/function: |
      exec:
        path: ./plugins/chart-inflator
chartName: minecraft
`, []Pos{{2, 7}}},
	{"Kptfile", "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: web\ninfo:\n  description: web app\n", []Pos{{2, 7}}},
	{"k3d.yaml", "apiVersion: k3d.io/v1alpha5\nkind: Simple\nmetadata:\n  name: dev\nservers: 1\nagents: 2\n", []Pos{{2, 7}}},
	{"talos.yaml", "apiVersion: v1alpha1\nkind: ExtensionServiceConfig\nname: nut-client\nconfigFiles:\n- content: MONITOR upsmonHost 1 remote username password\n  mountPath: /usr/local/etc/nut/upsmon.conf\n", []Pos{{2, 7}}},
	{"scheduler.yaml", "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: default-scheduler\n", []Pos{{2, 7}}},
	{"audit-policy.yaml", "apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages:\n- RequestReceived\nrules:\n- level: Metadata\n", []Pos{{2, 7}}},
	{"kubeplan-test.yaml", "apiVersion: kubeplan.dev/v1alpha1\nkind: PolicyTest\npolicies: [policy.yaml]\nresources: [resources.yaml]\nresults:\n- {policy: p, resource: Pod/web, result: pass}\n", []Pos{{2, 7}}},
	{"encryption.yaml", "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n- resources: [secrets]\n  providers:\n  - aescbc:\n      keys:\n      - name: key1\n        secret: c2VjcmV0IGlzIHNlY3VyZQ==\n  - identity: {}\n", []Pos{{2, 7}}},
}

func TestToolConfigsAreNotObjects(t *testing.T) {
	for _, c := range toolConfigFiles {
		objs, probs := Parse(c.name, []byte(c.data))
		if len(objs) != 0 {
			t.Errorf("%s: %d objects", c.name, len(objs))
		}
		if len(probs) != len(c.want) {
			t.Fatalf("%s: problems %v, want one per document at %v", c.name, probs, c.want)
		}
		for i, p := range probs {
			if p.Rule != RuleToolConfig || !p.Info || p.Warning || p.Pos != c.want[i] || p.File != c.name ||
				!strings.Contains(p.Message, "not a Kubernetes object") {
				t.Errorf("%s: problem %d = %+v, want an info %s at %v", c.name, i, p, RuleToolConfig, c.want[i])
			}
		}
		// a function's configuration is known by its annotation, which the
		// cheap sniff does not parse: it leaves that to the parser
		if c.name != "inflator.yaml" && MayHoldObject([]byte(c.data)) {
			t.Errorf("%s: may hold an object", c.name)
		}
	}
	_, probs := Parse("kubeconfig", []byte(toolConfigFiles[0].data))
	if m := probs[0].Message; !strings.Contains(m, "v1 Config is a kubeconfig") || strings.Contains(m, "LS0t") {
		t.Errorf("kubeconfig message %q", m)
	}
}

// Objects whose kind or group only looks like a tool's stay objects: the
// pair apiVersion+kind decides, and groups match exactly.
func TestToolConfigLookalikesAreObjects(t *testing.T) {
	for _, data := range []string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\n",
		"apiVersion: example.com/v1\nkind: Config\nmetadata: {name: a}\n",                             // a CRD's kind Config
		"apiVersion: cluster.x-k8s.io/v1beta1\nkind: Cluster\nmetadata: {name: a}\n",                  // Cluster API, applied to a cluster
		"apiVersion: internal.apiserver.k8s.io/v1alpha1\nkind: StorageVersion\nmetadata: {name: a}\n", // ends like apiserver.k8s.io
		"apiVersion: v1\nkind: Policy\nmetadata: {name: a}\n",                                         // not a pair a tool uses
		`{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "a"}}`,
	} {
		objs, probs := Parse("x.yaml", []byte(data))
		if len(objs) != 1 || len(probs) != 0 {
			t.Errorf("%q: %d objects, problems %v", data, len(objs), probs)
		}
		if !MayHoldObject([]byte(data)) {
			t.Errorf("%q: may hold no object", data)
		}
	}
	mixed := "apiVersion: skaffold/v2beta29\nkind: Config\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"
	if !MayHoldObject([]byte(mixed)) {
		t.Error("mixed: may hold no object")
	}
	objs, probs := Parse("mixed.yaml", []byte(mixed))
	if len(objs) != 1 || objs[0].Kind != "ConfigMap" || len(probs) != 1 || probs[0].Rule != RuleToolConfig || probs[0].Pos != (Pos{2, 7}) {
		t.Errorf("mixed: %v, %v", objs, probs)
	}
}
