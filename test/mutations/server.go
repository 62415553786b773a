package mutations

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"golang.org/x/sync/errgroup"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
)

// Verdict is one tool's answer about one mutation.
type Verdict struct {
	Rejected bool
	Message  string // the first reason, when rejected
}

// resources maps each kind of the bases to its REST resource.
var resources = map[string]schema.GroupVersionResource{
	"Deployment":              {Group: "apps", Version: "v1", Resource: "deployments"},
	"StatefulSet":             {Group: "apps", Version: "v1", Resource: "statefulsets"},
	"DaemonSet":               {Group: "apps", Version: "v1", Resource: "daemonsets"},
	"Job":                     {Group: "batch", Version: "v1", Resource: "jobs"},
	"CronJob":                 {Group: "batch", Version: "v1", Resource: "cronjobs"},
	"Pod":                     {Version: "v1", Resource: "pods"},
	"Service":                 {Version: "v1", Resource: "services"},
	"ConfigMap":               {Version: "v1", Resource: "configmaps"},
	"Secret":                  {Version: "v1", Resource: "secrets"},
	"ServiceAccount":          {Version: "v1", Resource: "serviceaccounts"},
	"PersistentVolumeClaim":   {Version: "v1", Resource: "persistentvolumeclaims"},
	"Namespace":               {Version: "v1", Resource: "namespaces"},
	"Ingress":                 {Group: "networking.k8s.io", Version: "v1", Resource: "ingresses"},
	"NetworkPolicy":           {Group: "networking.k8s.io", Version: "v1", Resource: "networkpolicies"},
	"Role":                    {Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "roles"},
	"RoleBinding":             {Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "rolebindings"},
	"ClusterRole":             {Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles"},
	"ClusterRoleBinding":      {Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterrolebindings"},
	"HorizontalPodAutoscaler": {Group: "autoscaling", Version: "v2", Resource: "horizontalpodautoscalers"},
	"PodDisruptionBudget":     {Group: "policy", Version: "v1", Resource: "poddisruptionbudgets"},
}

// ServerVerdicts sends every mutation to the API server as a dry-run create
// (dryRun=All, fieldValidation=Strict), concurrently (at most workers at
// once), namespaced kinds in ns. An object with a string name goes as a
// server-side apply (what kubeplan plan sends); one whose name is missing or
// not a string, which server-side apply cannot address, as a POST. Only an
// Invalid or BadRequest answer, or the InternalError server-side apply
// answers when the object does not fit its schema, is a rejection; any other error stops the
// run, because then the server did not judge the object.
func ServerVerdicts(ctx context.Context, dc dynamic.Interface, ns string, ms []Mutation, workers int) ([]Verdict, error) {
	out := make([]Verdict, len(ms))
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	for i, m := range ms {
		g.Go(func() error {
			err := dryRunCreate(ctx, dc, ns, m)
			switch {
			case err == nil:
			case apierrors.IsInvalid(err) || apierrors.IsBadRequest(err) || typedPatchError(err):
				out[i] = Verdict{Rejected: true, Message: firstLine(err.Error())}
			default:
				return fmt.Errorf("mutation %d (%s %s at %s: %s): %d %s: %w", m.ID, m.Kind, m.Class, m.Where, m.What,
					code(err), apierrors.ReasonForError(err), err)
			}
			return nil
		})
	}
	return out, g.Wait()
}

func dryRunCreate(ctx context.Context, dc dynamic.Interface, ns string, m Mutation) error {
	gvr, ok := resources[m.Kind]
	if !ok {
		return fmt.Errorf("no resource for kind %s", m.Kind)
	}
	ri := dynamic.ResourceInterface(dc.Resource(gvr))
	if m.Namespaced() {
		ri = dc.Resource(gvr).Namespace(ns)
	}
	meta, _ := m.Object["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	if name == "" {
		_, err := ri.Create(ctx, &unstructured.Unstructured{Object: m.Object}, metav1.CreateOptions{
			DryRun: []string{metav1.DryRunAll}, FieldValidation: "Strict"})
		return err
	}
	data, err := json.Marshal(m.Object)
	if err != nil {
		return err
	}
	force := true
	_, err = ri.Patch(ctx, name, types.ApplyPatchType, data, metav1.PatchOptions{
		DryRun: []string{metav1.DryRunAll}, FieldValidation: "Strict", FieldManager: "kubeplan-mutations", Force: &force})
	return err
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}

// code is the HTTP status of an API error, 0 for other errors.
func code(err error) int32 {
	if s, ok := err.(apierrors.APIStatus); ok {
		return s.Status().Code
	}
	return 0
}

// typedPatchError reports the 500 server-side apply returns when the
// object does not fit the schema (unknown fields, wrong types, duplicate
// keys of a list map: "failed to create typed patch object") or cannot be
// decoded into its Go type (a bad quantity: "failed to convert new object").
func typedPatchError(err error) bool {
	msg := err.Error()
	return code(err) == 500 && (strings.Contains(msg, "failed to create typed patch object") ||
		strings.Contains(msg, "failed to convert new object"))
}
