package main

import (
	"context"
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/kubernetes/third_party/forked/golang/expansion"
)

// objectReader reads the Secrets and ConfigMaps a container's environment refers to.
type objectReader interface {
	secret(ctx context.Context, ns, name string) (map[string][]byte, error)
	configMap(ctx context.Context, ns, name string) (map[string]string, error)
}

// apiReader reads them from the API server.
type apiReader struct{ client kubernetes.Interface }

func (r apiReader) secret(ctx context.Context, ns, name string) (map[string][]byte, error) {
	s, err := r.client.CoreV1().Secrets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	data := map[string][]byte{}
	for k, v := range s.Data {
		data[k] = v
	}
	for k, v := range s.StringData {
		data[k] = []byte(v)
	}
	return data, nil
}

func (r apiReader) configMap(ctx context.Context, ns, name string) (map[string]string, error) {
	cm, err := r.client.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	data := map[string]string{}
	for k, v := range cm.BinaryData {
		data[k] = string(v)
	}
	for k, v := range cm.Data {
		data[k] = v
	}
	return data, nil
}

// configError is a container whose environment cannot be built: the kubelet's CreateContainerConfigError.
type configError struct{ msg string }

func (e configError) Error() string { return e.msg }

// containerEnv builds a container's environment as the kubelet does: envFrom
// first, then env in order, each value with $(VAR) expanded from the variables
// before it ($$ escapes a $), Secret and ConfigMap keys read through r. A
// missing non-optional Secret, ConfigMap or key is a configError with the
// kubelet's message; other read errors are returned as they are.
func containerEnv(ctx context.Context, r objectReader, pod *v1.Pod, c v1.Container) (map[string]string, error) {
	env := map[string]string{}
	for _, from := range c.EnvFrom {
		var data map[string]string
		switch {
		case from.SecretRef != nil:
			s, err := r.secret(ctx, pod.Namespace, from.SecretRef.Name)
			if missing(err, from.SecretRef.Optional) {
				continue
			}
			if err != nil {
				return nil, readError(err, "secret", from.SecretRef.Name)
			}
			data = map[string]string{}
			for k, v := range s {
				data[k] = string(v)
			}
		case from.ConfigMapRef != nil:
			cm, err := r.configMap(ctx, pod.Namespace, from.ConfigMapRef.Name)
			if missing(err, from.ConfigMapRef.Optional) {
				continue
			}
			if err != nil {
				return nil, readError(err, "configmap", from.ConfigMapRef.Name)
			}
			data = cm
		}
		for k, v := range data {
			env[from.Prefix+k] = v
		}
	}
	mapping := expansion.MappingFuncFor(env)
	for _, e := range c.Env {
		switch from := e.ValueFrom; {
		case from == nil:
			env[e.Name] = expansion.Expand(e.Value, mapping)
		case from.SecretKeyRef != nil:
			ref := from.SecretKeyRef
			v, ok, err := keyValue(ctx, r.secret, "secret", "Secret", pod.Namespace, ref.Name, ref.Key, ref.Optional)
			if err != nil {
				return nil, err
			}
			if ok {
				env[e.Name] = string(v)
			}
		case from.ConfigMapKeyRef != nil:
			ref := from.ConfigMapKeyRef
			v, ok, err := keyValue(ctx, r.configMap, "configmap", "ConfigMap", pod.Namespace, ref.Name, ref.Key, ref.Optional)
			if err != nil {
				return nil, err
			}
			if ok {
				env[e.Name] = v
			}
		case from.FieldRef != nil:
			env[e.Name] = fieldValue(pod, from.FieldRef.FieldPath)
		}
	}
	return env, nil
}

// missing says whether err is a NotFound that optional allows to skip.
// keyValue is key of the Secret or ConfigMap ns/name that get reads (kind
// and title word the kubelet's messages); ok is false when it or the key
// is missing and the reference is optional.
func keyValue[V any](ctx context.Context, get func(context.Context, string, string) (map[string]V, error), kind, title, ns, name, key string, optional *bool) (v V, ok bool, err error) {
	data, err := get(ctx, ns, name)
	if missing(err, optional) {
		return v, false, nil
	}
	if err != nil {
		return v, false, readError(err, kind, name)
	}
	v, found := data[key]
	if !found {
		if optional != nil && *optional {
			return v, false, nil
		}
		return v, false, configError{fmt.Sprintf("couldn't find key %s in %s %s/%s", key, title, ns, name)}
	}
	return v, true, nil
}

func missing(err error, optional *bool) bool {
	return apierrors.IsNotFound(err) && optional != nil && *optional
}

// readError turns a NotFound of the object kind/name into the kubelet's
// configError (`secret "NAME" not found`, `configmap "NAME" not found`).
func readError(err error, kind, name string) error {
	if apierrors.IsNotFound(err) {
		return configError{fmt.Sprintf("%s %q not found", kind, name)}
	}
	return err
}

// fieldValue is the downward API value of the pod fields a test is likely to use.
func fieldValue(pod *v1.Pod, path string) string {
	switch path {
	case "metadata.name":
		return pod.Name
	case "metadata.namespace":
		return pod.Namespace
	case "metadata.uid":
		return string(pod.UID)
	case "spec.nodeName":
		return pod.Spec.NodeName
	case "spec.serviceAccountName":
		return pod.Spec.ServiceAccountName
	case "status.podIP":
		return pod.Status.PodIP
	case "status.hostIP":
		return pod.Status.HostIP
	}
	return ""
}

// containerLog is what a simulated container prints: its command and args,
// one line each, with $(VAR) expanded from env as the kubelet expands them.
func containerLog(c v1.Container, env map[string]string) []string {
	mapping := expansion.MappingFuncFor(env)
	var lines []string
	for _, arg := range append(append([]string{}, c.Command...), c.Args...) {
		lines = append(lines, strings.Split(expansion.Expand(arg, mapping), "\n")...)
	}
	return lines
}
