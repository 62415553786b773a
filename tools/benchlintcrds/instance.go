package main

import "fmt"

// defects are the ways a planted invalid custom resource is wrong; the
// last breaks only an x-kubernetes-validations rule, which kubeconform does
// not evaluate.
var defects = []string{"wrong type", "unknown field", "enum", "cel"}

func crName(t crdType, j int) string { return fmt.Sprintf("%s-%d", t.plural, j) }

// customResource is custom resource j of type t in namespace ns, valid
// unless defect is set.
func customResource(t crdType, ns string, j int, defect string) map[string]any {
	specs := map[string]any{}
	for i, role := range roles(t.n) {
		if i >= 3 {
			break
		}
		specs[role] = map[string]any{
			"replicas":      1 + i,
			"restartPolicy": "OnFailure",
			"template":      podTemplateValue(t, role, j),
		}
	}
	spec := map[string]any{
		"mode":         []string{"Batch", "Serving", "Interactive"}[j%3],
		"minReplicas":  1,
		"maxReplicas":  4,
		"ttl":          "24h",
		"labels":       map[string]any{"team": ns, "tier": "gold"},
		"replicaSpecs": specs,
	}
	switch defect {
	case "wrong type":
		spec["minReplicas"] = "three"
	case "unknown field":
		spec["replcas"] = 3
	case "enum":
		spec["mode"] = "Streaming"
	case "cel":
		spec["minReplicas"], spec["maxReplicas"] = 5, 2
	}
	return map[string]any{
		"apiVersion": t.group + "/" + t.versions[0],
		"kind":       t.kind,
		"metadata": map[string]any{
			"name": crName(t, j), "namespace": ns,
			"labels":      map[string]any{"app.kubernetes.io/name": t.plural, "app.kubernetes.io/instance": crName(t, j)},
			"annotations": map[string]any{"bench.dev/owner": "team " + ns},
		},
		"spec": spec,
	}
}

func podTemplateValue(t crdType, role string, j int) map[string]any {
	var env []any
	for k := range 4 {
		env = append(env, map[string]any{"name": fmt.Sprintf("SETTING_%d", k), "value": fmt.Sprintf("value-%d-%d", j, k)})
	}
	env = append(env, map[string]any{"name": "PASSWORD", "valueFrom": map[string]any{"secretKeyRef": map[string]any{"name": "creds", "key": "password"}}})
	c := map[string]any{
		"name":            "main",
		"image":           fmt.Sprintf("registry.example/%s/%s:v0.%d", t.plural, role, j%7),
		"imagePullPolicy": "IfNotPresent",
		"command":         []any{"/bin/run"},
		"args":            []any{"--role=" + role, "--epochs=10", "--batch-size=64"},
		"env":             env,
		"ports":           []any{map[string]any{"name": "http", "containerPort": 8080, "protocol": "TCP"}},
		"resources": map[string]any{
			"requests": map[string]any{"cpu": "500m", "memory": "1Gi"},
			"limits":   map[string]any{"cpu": "2", "memory": "4Gi"},
		},
		"readinessProbe":  map[string]any{"httpGet": map[string]any{"path": "/healthz", "port": 8080}, "periodSeconds": 10},
		"livenessProbe":   map[string]any{"tcpSocket": map[string]any{"port": 8080}, "failureThreshold": 3},
		"volumeMounts":    []any{map[string]any{"name": "data", "mountPath": "/data"}, map[string]any{"name": "config", "mountPath": "/etc/app", "readOnly": true}},
		"securityContext": map[string]any{"runAsNonRoot": true, "runAsUser": 1000, "capabilities": map[string]any{"drop": []any{"ALL"}}},
	}
	sidecar := map[string]any{
		"name": "proxy", "image": "registry.example/proxy:1.0",
		"ports":     []any{map[string]any{"containerPort": 15001}},
		"resources": map[string]any{"requests": map[string]any{"cpu": "100m", "memory": "64Mi"}},
	}
	return map[string]any{
		"metadata": map[string]any{"labels": map[string]any{"role": role}},
		"spec": map[string]any{
			"containers":         []any{c, sidecar},
			"serviceAccountName": "runner",
			"restartPolicy":      "OnFailure",
			"volumes": []any{
				map[string]any{"name": "data", "persistentVolumeClaim": map[string]any{"claimName": "data"}},
				map[string]any{"name": "config", "configMap": map[string]any{"name": "app-config"}},
			},
			"tolerations": []any{map[string]any{"key": "gpu", "operator": "Exists", "effect": "NoSchedule"}},
		},
	}
}
