package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// trap is a set of TCP listeners on loopback that record every connection
// and never answer, so that a client that reaches one also hangs.
type trap struct {
	mu    sync.Mutex
	seen  []string
	addrs []string
}

func newTrap(t *testing.T, n int) *trap {
	t.Helper()
	tr := &trap{}
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		tr.addrs = append(tr.addrs, ln.Addr().String())
		var conns []net.Conn
		t.Cleanup(func() {
			ln.Close()
			tr.mu.Lock()
			defer tr.mu.Unlock()
			for _, c := range conns {
				c.Close()
			}
		})
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				tr.mu.Lock()
				tr.seen = append(tr.seen, ln.Addr().String())
				conns = append(conns, c)
				tr.mu.Unlock()
			}
		}()
	}
	return tr
}

// connections are the listeners connected to so far.
func (tr *trap) connections() []string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return append([]string(nil), tr.seen...)
}

// hostileRepo writes a repository whose every file that can name a
// network address names one of the trap's listeners: kustomize plugin
// configs, remote resources and bases, a Helm chart's dependency
// repository, values schema $ref and template functions, SOPS key
// services. kubeplan.yaml names no cluster: the run's --kubeconfig does.
func hostileRepo(t *testing.T, ns string, a []string) string {
	t.Helper()
	dir := t.TempDir()
	url := func(i int) string { return "http://" + a[i%len(a)] }
	files := map[string]string{
		"kubeplan.yaml": fmt.Sprintf("defaults:\n  namespace: %s\n  applyset: configmap/net-{name}\npolicies: [policies/policy.yaml]\nignore: [policies]\n", ns),
		"clean/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: clean}\ndata: {a: b}\n",
		// builtin generator and transformers in their own files
		"gen/kustomization.yaml": "resources: [cm.yaml]\ngenerators: [gen.yaml]\n",
		"gen/cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: gen}\n",
		"gen/gen.yaml":           "apiVersion: builtin\nkind: ConfigMapGenerator\nmetadata: {name: g}\nfiles:\n- k=" + url(0) + "/x\n",
		"tr/kustomization.yaml":  "resources: [cm.yaml]\ntransformers: [t.yaml]\n",
		"tr/cm.yaml":             "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: tr}\n",
		"tr/t.yaml":              "apiVersion: builtin\nkind: PatchTransformer\nmetadata: {name: t}\npath: " + url(1) + "/p.yaml\ntarget: {kind: ConfigMap}\n",
		"val/kustomization.yaml": "resources: [cm.yaml]\nvalidators: [v.yaml]\nreplacements:\n- path: " + url(2) + "/r.yaml\n",
		"val/cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: val}\n",
		"val/v.yaml":             "apiVersion: builtin\nkind: ReplacementTransformer\nmetadata: {name: v}\nreplacements:\n- path: " + url(2) + "/r.yaml\n",
		// a generator configured by a kustomization that patches the URL in
		"patched/kustomization.yaml":      "resources: [cm.yaml]\ngenerators: [gens]\n",
		"patched/cm.yaml":                 "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: patched}\n",
		"patched/gens/kustomization.yaml": "resources: [gen.yaml]\npatches:\n- path: url.yaml\n  target: {kind: ConfigMapGenerator}\n",
		"patched/gens/gen.yaml":           "apiVersion: builtin\nkind: ConfigMapGenerator\nmetadata: {name: g}\nfiles: [local.txt]\n",
		"patched/gens/url.yaml":           "- op: replace\n  path: /files/0\n  value: " + url(3) + "/x\n",
		// remote resources, bases, components, openapi, crds
		"remote/kustomization.yaml":  "resources:\n- " + url(0) + "/x.yaml\n- git::" + url(1) + "/org/repo.git//base?ref=main\n",
		"comp/kustomization.yaml":    "resources: [cm.yaml]\ncomponents:\n- " + url(2) + "/component\n",
		"comp/cm.yaml":               "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: comp}\n",
		"openapi/kustomization.yaml": "resources: [cm.yaml]\nopenapi:\n  path: " + url(3) + "/schema.json\ncrds:\n- " + url(0) + "/crd.yaml\n",
		"openapi/cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: openapi}\n",
		// Helm: a dependency from a repository, a schema $ref, DNS and lookup
		"chartdep/Chart.yaml":            "apiVersion: v2\nname: chartdep\nversion: 0.1.0\ndependencies:\n- name: sub\n  version: 1.0.0\n  repository: " + url(1) + "/charts\n",
		"chartdep/templates/cm.yaml":     "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: chartdep}\n",
		"chartschema/Chart.yaml":         "apiVersion: v2\nname: chartschema\nversion: 0.1.0\n",
		"chartschema/values.yaml":        "a: b\n",
		"chartschema/values.schema.json": `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {"a": {"$ref": "` + url(2) + `/a.json"}}}`,
		"chartschema/templates/cm.yaml":  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: chartschema}\n",
		"chartfn/Chart.yaml":             "apiVersion: v2\nname: chartfn\nversion: 0.1.0\n",
		"chartfn/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: chartfn}\ndata:\n" +
			"  host: {{ getHostByName \"localhost\" | quote }}\n" +
			"  live: {{ lookup \"v1\" \"ConfigMap\" \"" + ns + "\" \"clean\" | toJson | quote }}\n",
		// SOPS: key services and KMS endpoints on the trap
		"sops/secret.yaml": "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\nstringData:\n  password: ENC[AES256_GCM,data:AAAA,iv:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=,tag:AAAAAAAAAAAAAAAAAAAAAA==,type:str]\n" +
			"sops:\n  hc_vault:\n  - vault_address: " + url(3) + "\n    engine_path: sops\n    key_name: k\n    created_at: \"2026-01-01T00:00:00Z\"\n    enc: vault:v1:AAAA\n" +
			"  kms:\n  - arn: arn:aws:kms:us-east-1:111122223333:key/k\n    aws_profile: \"\"\n    created_at: \"2026-01-01T00:00:00Z\"\n    enc: AAAA\n" +
			"  keyservices:\n  - " + url(0) + "\n" +
			"  lastmodified: \"2026-01-01T00:00:00Z\"\n  mac: ENC[AES256_GCM,data:AAAA,iv:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=,tag:AAAAAAAAAAAAAAAAAAAAAA==,type:str]\n  encrypted_regex: ^(data|stringData)$\n  version: 3.9.0\n",
		".sops.yaml": "creation_rules:\n- hc_vault_transit_uri: " + url(3) + "/v1/sops/keys/k\n",
		// policies and their tests
		"policies/policy.yaml":        "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: p}\nspec:\n  matchConstraints:\n    resourceRules:\n    - {apiGroups: [\"\"], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [configmaps]}\n  validations:\n  - expression: \"true\"\n---\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: p}\nspec:\n  policyName: p\n  validationActions: [Deny]\n",
		"policies/kubeplan-test.yaml": "apiVersion: kubeplan.dev/v1alpha1\nkind: PolicyTest\npolicies: [policy.yaml, " + url(1) + "/policy.yaml]\nresources: [cm.yaml, " + url(2) + "/r.yaml]\nresults:\n- {policy: p, binding: p, resource: ConfigMap/c, result: pass}\n",
		"policies/cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestNoNetworkOffline runs the verbs that need no cluster (lint,
// projects, policy test) over the hostile repository: no listener may see
// a connection, and lint names each refused address at its entry.
func TestNoNetworkOffline(t *testing.T) {
	tr := newTrap(t, 4)
	repo := hostileRepo(t, "net", tr.addrs)
	cfg := filepath.Join(repo, "kubeplan.yaml")
	runs := [][]string{
		{"lint", "--config", cfg, repo},
		{"projects", "--config", cfg, repo},
		{"policy", "test", filepath.Join(repo, "policies")},
	}
	for _, d := range hostileDirs {
		runs = append(runs, []string{"lint", "--config", cfg, filepath.Join(repo, d)})
	}
	runTrapped(t, tr, repo, runs)
}

// TestIntegrationNoNetworkButTheAPIServer runs every verb, plan and apply
// against the testcluster included, over the hostile repository: none of
// the listeners may see a connection (the API server is the only peer),
// and every run ends although the listeners never answer.
func TestIntegrationNoNetworkButTheAPIServer(t *testing.T) {
	testkube.Integration(t)
	tr := newTrap(t, 4)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := c.Narrow(t, "gitops", ns)
	repo := hostileRepo(t, ns, tr.addrs)
	cfg := filepath.Join(repo, "kubeplan.yaml")
	cluster := []string{"--kubeconfig", kc, "--request-timeout", "20s"}
	one := func(dir string) []string {
		return append([]string{"-n", ns, "--applyset", "configmap/net-one", "--config", cfg, filepath.Join(repo, dir)}, cluster...)
	}
	runs := [][]string{
		{"lint", "--config", cfg, repo},
		append([]string{"plan"}, one("clean")...),
		append([]string{"plan", "--all", "--config", cfg, repo}, cluster...),
		append([]string{"plan", "--all", "-o", "json", "--config", cfg, repo}, cluster...),
		append([]string{"apply", "--all", "--auto-approve", "--config", cfg, repo}, cluster...),
		append([]string{"status", "-n", ns, "--applyset", "configmap/net-clean"}, cluster...),
		{"projects", "--config", cfg, repo},
		{"policy", "test", filepath.Join(repo, "policies")},
	}
	for _, d := range hostileDirs {
		runs = append(runs, append([]string{"plan"}, one(d)...))
	}
	out := runTrapped(t, tr, repo, runs)
	// The API server was reached: the clean project planned, alone and
	// among the others, and was applied.
	for i, want := range map[int]string{
		1: "exit 0\n+ create configmap/clean",
		2: "Total: 12 projects, 2 with changes, 10 failed",
		4: "configmap/clean created",
		5: "configmap/clean  Current",
	} {
		if got := out[strings.Join(runs[i], " ")]; !strings.Contains(got, want) {
			t.Errorf("kubeplan %s: want %q in\n%s", strings.Join(runs[i], " "), want, got)
		}
	}
}

// hostileDirs are the directories of hostileRepo that each hold one attack.
var hostileDirs = []string{"gen", "tr", "val", "patched", "remote", "comp", "openapi", "chartdep", "chartschema", "chartfn", "sops"}

// runTrapped runs kubeplan with each of runs, failing at the first run
// that connects to a listener of tr, hangs, panics or exits 2, and checks
// that lint names the refused entries of repo.
func runTrapped(t *testing.T, tr *trap, repo string, runs [][]string) map[string]string {
	t.Helper()
	out := map[string]string{}
	refusals := map[string]string{
		"gen":     "gen/gen.yaml:5:3: error kustomize: ConfigMapGenerator files names http://" + tr.addrs[0] + "/x",
		"tr":      "tr/t.yaml:4:7: error kustomize: PatchTransformer path names http://" + tr.addrs[1],
		"val":     "val/kustomization.yaml:4:9: error kustomize: remote kustomize resources are not fetched",
		"patched": "patched/gens/url.yaml:3:10: error kustomize: kustomize tried to fetch http://" + tr.addrs[3],
		"remote":  "remote/kustomization.yaml:2:3: error kustomize: remote kustomize resources are not fetched",
		"comp":    "comp/kustomization.yaml:3:3: error kustomize: remote kustomize resources are not fetched",
		"openapi": "openapi/kustomization.yaml:3:9: error kustomize: remote kustomize resources are not fetched",
	}
	for _, args := range runs {
		type result struct {
			code           int
			stdout, stderr string
		}
		done := make(chan result, 1)
		go func() {
			code, stdout, stderr := cli(args...)
			done <- result{code, stdout, stderr}
		}()
		run := "kubeplan " + strings.Join(args, " ")
		select {
		case r := <-done:
			out[strings.Join(args, " ")] = fmt.Sprintf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
			if r.code == 2 || strings.Contains(r.stderr, "panic") {
				t.Errorf("%s: exit %d\n%s", run, r.code, r.stderr)
			}
			rel, _ := filepath.Rel(repo, args[len(args)-1])
			if want := refusals[rel]; args[0] == "lint" && want != "" && !strings.Contains(r.stdout, want) {
				t.Errorf("%s: want %q in\n%s%s", run, want, r.stdout, r.stderr)
			}
		case <-time.After(90 * time.Second):
			t.Fatalf("%s still runs after 90 s (connections so far: %v)", run, tr.connections())
		}
		if seen := tr.connections(); len(seen) > 0 {
			t.Fatalf("%s connected to %v: nothing but the API server may be reached", run, seen)
		}
	}
	return out
}
