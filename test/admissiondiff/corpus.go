package admissiondiff

import (
	_ "embed"
	"fmt"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/kubeplan/kubeplan/manifest"
)

//go:embed policies.yaml
var policiesYAML string

// Policies returns the policies, bindings and the parameter ConfigMaps
// with this run's suffix, namespace label value and parameter namespace;
// dev holds the params the selector of max-replicas-dev finds.
func Policies(suffix, run, paramNS, dev string) string {
	r := strings.NewReplacer("SUFFIX", suffix, "RUN", run, "PARAMNS", paramNS)
	return r.Replace(policiesYAML) + fmt.Sprintf(`---
apiVersion: v1
kind: ConfigMap
metadata:
  name: replica-limits
  namespace: %[1]s
data:
  maxReplicas: "5"
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: dev-limits-low
  namespace: %[2]s
  labels: {admissiondiff-limits: "true"}
data:
  maxReplicas: "3"
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: dev-limits-high
  namespace: %[2]s
  labels: {admissiondiff-limits: "true"}
data:
  maxReplicas: "6"
`, paramNS, dev)
}

// Corpus generates the objects to judge, spread over the namespaces prod
// and dev (their labels decide namespaceSelector): Deployments, Pods,
// Services and ConfigMaps in variants that pass and fail each policy.
// Every value a policy reads is set explicitly: the API server judges the
// object after defaulting, lint judges it as written.
func Corpus(prod, dev string) []map[string]any {
	var out []map[string]any
	images := []string{"registry.example.com/web:1.2", "registry.example.com/api:2.0.1", "nginx:1.27", "registry.example.com/Web:1", "docker.io/library/busybox:1.36"}
	docs := []string{"", "https://docs.example.com/web", "http://docs.example.com/web", "not a url", "https://example.com/a?b=c#d"}
	n := 0
	for _, ns := range []string{prod, dev} {
		for replicas := 1; replicas <= 8; replicas++ {
			for variant := 0; variant < 5; variant++ {
				n++
				out = append(out, deployment(fmt.Sprintf("web-%d", n), ns, replicas, images[(replicas+variant)%len(images)], variant%3 == 0, variant%2 == 1, docs[(n+variant)%len(docs)], variant != 4))
			}
		}
		for i, mem := range []string{"128Mi", "512Mi", "1Gi", "2Gi", "1500M", "999Mi", "", "1023Mi", "100M", "3G"} {
			for j := 0; j < 3; j++ {
				n++
				out = append(out, pod(fmt.Sprintf("pod-%d", n), ns, mem, images[(i+j)%len(images)], docs[(i*3+j)%len(docs)], j != 2))
			}
		}
		for i, typ := range []string{"ClusterIP", "NodePort", "LoadBalancer", "ExternalName", "ClusterIP"} {
			for j, ports := range [][]int{{80}, {8080}, {443, 8443}, {1024, 65000}, {22, 53}} {
				n++
				team := []string{"web", "db", ""}[(i+j)%3]
				out = append(out, service(fmt.Sprintf("svc-%d", n), ns, typ, team, ports, (i+j)%4 != 0))
			}
		}
		for i := 0; i < 4; i++ { // type left to the API server's default
			n++
			svc := service(fmt.Sprintf("svc-%d", n), ns, "ClusterIP", []string{"web", ""}[i%2], []int{8080 + i}, i%3 != 0)
			delete(svc["spec"].(map[string]any), "type")
			out = append(out, svc)
		}
		out = append(out, defaultsCorpus(ns, &n)...)
		for i, count := range []string{"1", "99", "100", "5000", "abc", "", "-3"} {
			for _, check := range []string{"ignore", "fail", ""} {
				n++
				out = append(out, configMap(fmt.Sprintf("cm-%d-%d", n, i), ns, count, check))
			}
		}
	}
	return out
}

func meta(name, ns string, labels map[string]any, annotations map[string]any) map[string]any {
	m := map[string]any{"name": name, "namespace": ns}
	if len(labels) > 0 {
		m["labels"] = labels
	}
	if len(annotations) > 0 {
		m["annotations"] = annotations
	}
	return m
}

func deployment(name, ns string, replicas int, image string, podNonRoot, containerNonRoot bool, doc string, owner bool) map[string]any {
	labels := map[string]any{"app": name}
	if owner {
		labels["owner"] = "team-a"
	}
	var ann map[string]any
	if doc != "" {
		ann = map[string]any{"example.com/docs": doc}
	}
	c := map[string]any{"name": "main", "image": image}
	if containerNonRoot {
		c["securityContext"] = map[string]any{"runAsNonRoot": true}
	}
	spec := map[string]any{"containers": []any{c}}
	if podNonRoot {
		spec["securityContext"] = map[string]any{"runAsNonRoot": true}
	}
	return map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": meta(name, ns, labels, ann),
		"spec": map[string]any{
			"replicas": replicas,
			"selector": map[string]any{"matchLabels": map[string]any{"app": name}},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"app": name}},
				"spec":     spec,
			},
		},
	}
}

func pod(name, ns, memory, image, doc string, owner bool) map[string]any {
	c := map[string]any{"name": "main", "image": image}
	if memory != "" {
		c["resources"] = map[string]any{"limits": map[string]any{"memory": memory}}
	}
	sidecar := map[string]any{"name": "sidecar", "image": "registry.example.com/proxy:1.0", "resources": map[string]any{"limits": map[string]any{"memory": "64Mi"}}}
	labels := map[string]any{}
	if owner {
		labels["owner"] = "team-b"
	}
	var ann map[string]any
	if doc != "" {
		ann = map[string]any{"example.com/docs": doc}
	}
	return map[string]any{
		"apiVersion": "v1", "kind": "Pod",
		"metadata": meta(name, ns, labels, ann),
		"spec":     map[string]any{"containers": []any{c, sidecar}},
	}
}

func service(name, ns, typ, team string, ports []int, owner bool) map[string]any {
	labels := map[string]any{}
	if team != "" {
		labels["team"] = team
	}
	if owner {
		labels["owner"] = "team-c"
	}
	spec := map[string]any{"type": typ}
	if typ == "ExternalName" {
		spec["externalName"] = "db.example.com"
	}
	var ps []any
	for i, p := range ports {
		ps = append(ps, map[string]any{"name": fmt.Sprintf("p%d", i), "port": p, "protocol": "TCP"})
	}
	spec["ports"] = ps
	if typ != "ExternalName" {
		spec["selector"] = map[string]any{"app": name}
	}
	return map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": meta(name, ns, labels, nil), "spec": spec}
}

func configMap(name, ns, count, check string) map[string]any {
	labels := map[string]any{}
	if check != "" {
		labels["check"] = check
	}
	data := map[string]any{"other": "x"}
	if count != "" {
		data["count"] = count
	}
	return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta(name, ns, labels, nil), "data": data}
}

// Parse reads YAML documents as lint does.
func Parse(name, data string) ([]*manifest.Object, error) {
	objs, probs := manifest.Parse(name, []byte(data))
	if len(probs) > 0 {
		return nil, probs[0]
	}
	return objs, nil
}

// ToYAML writes objects as one YAML stream.
func ToYAML(objs []map[string]any) (string, error) {
	var b strings.Builder
	for _, o := range objs {
		y, err := yaml.Marshal(o)
		if err != nil {
			return "", err
		}
		b.WriteString("---\n")
		b.Write(y)
	}
	return b.String(), nil
}

// defaultsCorpus is workloads, Pods and Services that leave to the API
// server what it defaults (replicas, strategies, image pull policies,
// probe timings, volume modes, Service traffic policies...), so that the
// show-*-defaults policies print the defaulted values.
func defaultsCorpus(ns string, n *int) []map[string]any {
	next := func(prefix string) string { *n++; return fmt.Sprintf("%s-%d", prefix, *n) }
	images := []string{"registry.example.com/web", "registry.example.com/web:latest", "registry.example.com/web:1.2",
		"registry.example.com/web@sha256:" + strings.Repeat("a", 64), "localhost:5000/web", "localhost:5000/web:2", "busybox"}
	podSpec := func(i int, restart string) map[string]any {
		c := map[string]any{"name": "main", "image": images[i%len(images)]}
		if i%2 == 0 {
			c["ports"] = []any{map[string]any{"containerPort": int64(8080)}, map[string]any{"containerPort": int64(53), "protocol": "UDP"}}
		}
		if i%3 == 0 {
			c["readinessProbe"] = map[string]any{"httpGet": map[string]any{"port": int64(8080)}}
		} else if i%3 == 1 {
			c["readinessProbe"] = map[string]any{"tcpSocket": map[string]any{"port": int64(8080)}, "periodSeconds": int64(5)}
		}
		init := map[string]any{"name": "init", "image": images[(i+3)%len(images)], "imagePullPolicy": "Never"}
		spec := map[string]any{"containers": []any{c}, "initContainers": []any{init}}
		if i%2 == 1 {
			spec["volumes"] = []any{
				map[string]any{"name": "scratch"},
				map[string]any{"name": "cfg", "configMap": map[string]any{"name": "cfg"}},
				map[string]any{"name": "tls", "secret": map[string]any{"secretName": "tls", "defaultMode": int64(0o400)}},
			}
		}
		if restart != "" {
			spec["restartPolicy"] = restart
		}
		if i%4 == 3 {
			spec["dnsPolicy"] = "Default"
			spec["enableServiceLinks"] = false
		}
		return spec
	}
	template := func(name string, i int, restart string) map[string]any {
		return map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": name}}, "spec": podSpec(i, restart)}
	}
	selector := func(name string) map[string]any { return map[string]any{"matchLabels": map[string]any{"app": name}} }
	obj := func(apiVersion, kind, name string, spec map[string]any) map[string]any {
		return map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": meta(name, ns, nil, nil), "spec": spec}
	}
	var out []map[string]any
	for i := 0; i < 7; i++ {
		name := next("dflt-deploy")
		spec := map[string]any{"selector": selector(name), "template": template(name, i, "")}
		switch i % 3 {
		case 1:
			spec["strategy"] = map[string]any{"type": "RollingUpdate", "rollingUpdate": map[string]any{"maxSurge": int64(2)}}
		case 2:
			spec["replicas"] = int64(2)
			spec["revisionHistoryLimit"] = int64(3)
		}
		out = append(out, obj("apps/v1", "Deployment", name, spec))

		name = next("dflt-pod")
		out = append(out, obj("v1", "Pod", name, podSpec(i, "")))
	}
	for i := 0; i < 4; i++ {
		name := next("dflt-sts")
		spec := map[string]any{"selector": selector(name), "serviceName": name, "template": template(name, i, "")}
		if i == 1 {
			spec["podManagementPolicy"] = "Parallel"
			spec["persistentVolumeClaimRetentionPolicy"] = map[string]any{"whenDeleted": "Delete"}
		}
		out = append(out, obj("apps/v1", "StatefulSet", name, spec))

		name = next("dflt-ds")
		spec = map[string]any{"selector": selector(name), "template": template(name, i+1, "")}
		if i == 2 {
			spec["updateStrategy"] = map[string]any{"type": "OnDelete"}
		}
		out = append(out, obj("apps/v1", "DaemonSet", name, spec))

		name = next("dflt-rs")
		out = append(out, obj("apps/v1", "ReplicaSet", name, map[string]any{"selector": selector(name), "template": template(name, i+2, "")}))

		name = next("dflt-job")
		jspec := map[string]any{"template": map[string]any{"spec": podSpec(i, []string{"Never", "OnFailure"}[i%2])}}
		switch i {
		case 1:
			jspec["parallelism"] = int64(3)
		case 2:
			jspec["completions"] = int64(5)
			jspec["completionMode"] = "Indexed"
		}
		out = append(out, obj("batch/v1", "Job", name, jspec))

		name = next("dflt-cron")
		cspec := map[string]any{"schedule": "*/5 * * * *", "jobTemplate": map[string]any{"spec": map[string]any{"template": map[string]any{"spec": podSpec(i+1, "OnFailure")}}}}
		if i == 3 {
			cspec["concurrencyPolicy"] = "Forbid"
		}
		out = append(out, obj("batch/v1", "CronJob", name, cspec))
	}
	for i, typ := range []string{"", "ClusterIP", "NodePort", "LoadBalancer", "ExternalName", "ClusterIP"} {
		name := next("dflt-svc")
		spec := map[string]any{}
		if typ != "" {
			spec["type"] = typ
		}
		if typ == "ExternalName" {
			spec["externalName"] = "db.example.com"
		} else {
			spec["selector"] = map[string]any{"app": name}
			spec["ports"] = []any{map[string]any{"name": "http", "port": int64(80)}, map[string]any{"name": "dns", "port": int64(53), "protocol": "UDP", "targetPort": "dns"}}
		}
		if i == 5 {
			spec["sessionAffinity"] = "ClientIP"
			spec["externalIPs"] = []any{"203.0.113.10"}
		}
		out = append(out, obj("v1", "Service", name, spec))
	}
	return out
}
