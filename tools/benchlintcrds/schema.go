package main

import (
	"fmt"
)

// The building blocks of the generated CRD schemas: the shapes kubeflow's
// CRDs embed (pod templates with containers, probes, resources, volumes,
// replica specs, conditions), each field with a description, and
// x-kubernetes-validations rules at several levels. Only features both
// kubeplan and kubeconform's openapi2jsonschema.py read alike are used
// (no int-or-string, no preserve-unknown-fields beside properties, no null).

type schema = map[string]any

// describe adds a description of about the length real CRDs carry.
func describe(s schema, what string) schema {
	s["description"] = fmt.Sprintf("%s. %s", what, "Generated for the CRD-heavy lint benchmark.")
	return s
}

func str(what string) schema { return describe(schema{"type": "string"}, what) }
func integer(what string, min, max int) schema {
	return describe(schema{"type": "integer", "format": "int32", "minimum": min, "maximum": max}, what)
}
func boolean(what string) schema { return describe(schema{"type": "boolean"}, what) }

func object(what string, props schema, required ...string) schema {
	s := describe(schema{"type": "object", "properties": props}, what)
	if len(required) > 0 {
		r := make([]any, len(required))
		for i, v := range required {
			r[i] = v
		}
		s["required"] = r
	}
	return s
}

func array(what string, items schema) schema {
	return describe(schema{"type": "array", "items": items}, what)
}

func stringMap(what string) schema {
	s := describe(schema{"type": "object", "additionalProperties": schema{"type": "string"}}, what)
	return s
}

// rules sets x-kubernetes-validations on s.
func rules(s schema, rs ...[2]string) schema {
	var l []any
	for _, r := range rs {
		l = append(l, schema{"rule": r[0], "message": r[1]})
	}
	s["x-kubernetes-validations"] = l
	return s
}

func quantity(what string) schema {
	return describe(schema{"type": "string", "pattern": `^[0-9]+(\.[0-9]+)?(m|Ki|Mi|Gi|Ti|k|M|G)?$`}, what)
}

func resources() schema {
	return object("Compute resources", schema{
		"limits":   describe(schema{"type": "object", "additionalProperties": quantity("A quantity")}, "Limits"),
		"requests": describe(schema{"type": "object", "additionalProperties": quantity("A quantity")}, "Requests"),
	})
}

func probe() schema {
	return object("A probe", schema{
		"httpGet": object("HTTP GET action", schema{
			"path":   str("Path"),
			"port":   integer("Port", 1, 65535),
			"scheme": describe(schema{"type": "string", "enum": []any{"HTTP", "HTTPS"}}, "Scheme"),
			"httpHeaders": array("Headers", object("A header", schema{
				"name": str("Name"), "value": str("Value"),
			}, "name", "value")),
		}, "port"),
		"exec":                object("Exec action", schema{"command": array("Command", str("An argument"))}),
		"tcpSocket":           object("TCP action", schema{"port": integer("Port", 1, 65535), "host": str("Host")}, "port"),
		"initialDelaySeconds": integer("Initial delay", 0, 3600),
		"periodSeconds":       integer("Period", 1, 3600),
		"timeoutSeconds":      integer("Timeout", 1, 3600),
		"successThreshold":    integer("Success threshold", 1, 100),
		"failureThreshold":    integer("Failure threshold", 1, 100),
	})
}

func container() schema {
	envVar := object("An environment variable", schema{
		"name":  str("Name"),
		"value": str("Value"),
		"valueFrom": object("Source", schema{
			"configMapKeyRef": object("ConfigMap key", schema{"name": str("Name"), "key": str("Key"), "optional": boolean("Optional")}, "key"),
			"secretKeyRef":    object("Secret key", schema{"name": str("Name"), "key": str("Key"), "optional": boolean("Optional")}, "key"),
			"fieldRef":        object("Field", schema{"fieldPath": str("Path"), "apiVersion": str("Version")}, "fieldPath"),
		}),
	}, "name")
	port := rules(object("A port", schema{
		"name":          str("Name"),
		"containerPort": integer("Port", 1, 65535),
		"hostPort":      integer("Host port", 1, 65535),
		"protocol":      describe(schema{"type": "string", "enum": []any{"TCP", "UDP", "SCTP"}}, "Protocol"),
	}, "containerPort"), [2]string{"!has(self.hostPort) || self.hostPort == self.containerPort", "hostPort must equal containerPort"})
	sec := object("Security context", schema{
		"runAsUser":                integer("User", 0, 2147483647),
		"runAsGroup":               integer("Group", 0, 2147483647),
		"runAsNonRoot":             boolean("Non-root"),
		"readOnlyRootFilesystem":   boolean("Read-only root"),
		"allowPrivilegeEscalation": boolean("Escalation"),
		"privileged":               boolean("Privileged"),
		"capabilities": object("Capabilities", schema{
			"add":  array("Added", str("A capability")),
			"drop": array("Dropped", str("A capability")),
		}),
	})
	c := object("A container", schema{
		"name":            str("Name"),
		"image":           str("Image"),
		"imagePullPolicy": describe(schema{"type": "string", "enum": []any{"Always", "IfNotPresent", "Never"}}, "Pull policy"),
		"command":         array("Command", str("An argument")),
		"args":            array("Arguments", str("An argument")),
		"workingDir":      str("Working directory"),
		"env":             array("Environment", envVar),
		"envFrom": array("Environment sources", object("A source", schema{
			"prefix":       str("Prefix"),
			"configMapRef": object("ConfigMap", schema{"name": str("Name"), "optional": boolean("Optional")}),
			"secretRef":    object("Secret", schema{"name": str("Name"), "optional": boolean("Optional")}),
		})),
		"ports":          array("Ports", port),
		"resources":      resources(),
		"livenessProbe":  probe(),
		"readinessProbe": probe(),
		"startupProbe":   probe(),
		"volumeMounts": array("Mounts", object("A mount", schema{
			"name": str("Name"), "mountPath": str("Path"), "subPath": str("Sub-path"), "readOnly": boolean("Read-only"),
		}, "name", "mountPath")),
		"securityContext":          sec,
		"stdin":                    boolean("Stdin"),
		"tty":                      boolean("TTY"),
		"terminationMessagePath":   str("Termination message path"),
		"terminationMessagePolicy": describe(schema{"type": "string", "enum": []any{"File", "FallbackToLogsOnError"}}, "Policy"),
	}, "name", "image")
	return rules(c, [2]string{"self.name.size() <= 63", "the name must be at most 63 characters"},
		[2]string{"!has(self.env) || self.env.all(e, e.name.size() > 0)", "every env entry needs a name"})
}

func volume() schema {
	return object("A volume", schema{
		"name":                  str("Name"),
		"emptyDir":              object("Empty dir", schema{"medium": str("Medium"), "sizeLimit": quantity("Size")}),
		"configMap":             object("ConfigMap", schema{"name": str("Name"), "defaultMode": integer("Mode", 0, 511), "optional": boolean("Optional")}),
		"secret":                object("Secret", schema{"secretName": str("Name"), "defaultMode": integer("Mode", 0, 511), "optional": boolean("Optional")}),
		"persistentVolumeClaim": object("PVC", schema{"claimName": str("Claim"), "readOnly": boolean("Read-only")}, "claimName"),
		"hostPath":              object("Host path", schema{"path": str("Path"), "type": str("Type")}, "path"),
	}, "name")
}

func podTemplate() schema {
	return object("A pod template", schema{
		"metadata": object("Template metadata", schema{"labels": stringMap("Labels"), "annotations": stringMap("Annotations")}),
		"spec": rules(object("A pod spec", schema{
			"containers":                    array("Containers", container()),
			"initContainers":                array("Init containers", container()),
			"volumes":                       array("Volumes", volume()),
			"serviceAccountName":            str("Service account"),
			"nodeSelector":                  stringMap("Node selector"),
			"restartPolicy":                 describe(schema{"type": "string", "enum": []any{"Always", "OnFailure", "Never"}}, "Restart policy"),
			"terminationGracePeriodSeconds": integer("Grace period", 0, 86400),
			"priorityClassName":             str("Priority class"),
			"hostNetwork":                   boolean("Host network"),
			"tolerations": array("Tolerations", object("A toleration", schema{
				"key": str("Key"), "operator": describe(schema{"type": "string", "enum": []any{"Exists", "Equal"}}, "Operator"),
				"value": str("Value"), "effect": str("Effect"), "tolerationSeconds": integer("Seconds", 0, 86400),
			})),
		}, "containers"), [2]string{"self.containers.size() > 0", "a pod needs a container"}),
	})
}

func conditions() schema {
	return array("Conditions", object("A condition", schema{
		"type":               str("Type"),
		"status":             describe(schema{"type": "string", "enum": []any{"True", "False", "Unknown"}}, "Status"),
		"reason":             str("Reason"),
		"message":            str("Message"),
		"lastTransitionTime": describe(schema{"type": "string", "format": "date-time"}, "Time"),
	}, "type", "status"))
}

// replicaRoles names the replica specs a CRD of a given size has.
var replicaRoles = []string{"Master", "Worker", "Launcher", "PS", "Chief", "Evaluator", "Scheduler", "Server", "Driver", "Executor", "Router", "Predictor"}

// crdSchema is the openAPIV3Schema of generated CRD n: its spec holds
// roles(n) replica specs, each with a pod template, so sizes vary about
// threefold between CRDs.
func crdSchema(n int) schema {
	specs := schema{}
	for _, role := range roles(n) {
		specs[role] = object("A replica spec", schema{
			"replicas":      integer("Replicas", 0, 1000),
			"restartPolicy": describe(schema{"type": "string", "enum": []any{"Always", "OnFailure", "Never", "ExitCode"}}, "Restart policy"),
			"template":      podTemplate(),
		}, "template")
	}
	spec := rules(object("The desired state", schema{
		"mode":         describe(schema{"type": "string", "enum": []any{"Batch", "Serving", "Interactive"}}, "Mode"),
		"minReplicas":  integer("Minimum replicas", 0, 1000),
		"maxReplicas":  integer("Maximum replicas", 0, 1000),
		"suspend":      boolean("Suspend"),
		"ttl":          describe(schema{"type": "string", "pattern": "^[0-9]+[smhd]$"}, "Time to live"),
		"labels":       rules(stringMap("Labels"), [2]string{"self.all(k, k.size() <= 63)", "label keys must be at most 63 characters"}),
		"replicaSpecs": object("Replica specs by role", specs),
	}, "mode", "replicaSpecs"),
		[2]string{"!has(self.minReplicas) || !has(self.maxReplicas) || self.minReplicas <= self.maxReplicas", "minReplicas must not exceed maxReplicas"},
		[2]string{"self.mode != 'Serving' || has(self.maxReplicas)", "a Serving resource needs maxReplicas"})
	status := object("The observed state", schema{
		"conditions":     conditions(),
		"replicaStatus":  describe(schema{"type": "object", "additionalProperties": object("Counts", schema{"active": integer("Active", 0, 100000), "failed": integer("Failed", 0, 100000)})}, "Replica statuses"),
		"startTime":      describe(schema{"type": "string", "format": "date-time"}, "Start"),
		"completionTime": describe(schema{"type": "string", "format": "date-time"}, "Completion"),
	})
	return object(fmt.Sprintf("Generated resource %d", n), schema{
		"apiVersion": str("API version"),
		"kind":       str("Kind"),
		"metadata":   schema{"type": "object"},
		"spec":       spec,
		"status":     status,
	}, "spec")
}

// roles are the replica roles of CRD n: 1 to 3.
func roles(n int) []string { return replicaRoles[:1+(n*7)%3] }
