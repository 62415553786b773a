package notify

import (
	"context"
	"encoding/json"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// StateAnnotation holds the notification state on ConfigMapState's ConfigMap.
const StateAnnotation = "kubeplan.dev/notify-state"

// ConfigMapState is a State kept as JSON in the annotation
// kubeplan.dev/notify-state of a ConfigMap (created on the first Save),
// e.g. kubeplan-system/kubeplan-notify, which deploy/'s Role lets serve
// read and write. One serve writes it; a conflicting write is retried once.
type ConfigMapState struct {
	Client          dynamic.Interface
	Namespace, Name string
}

var configMaps = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}

// Load reads the state; a missing ConfigMap or annotation is an empty state.
func (s ConfigMapState) Load(ctx context.Context) (map[string]ProjectState, error) {
	out := map[string]ProjectState{}
	cm, err := s.Client.Resource(configMaps).Namespace(s.Namespace).Get(ctx, s.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("configmap %s/%s: %w", s.Namespace, s.Name, err)
	}
	data, ok := cm.GetAnnotations()[StateAnnotation]
	if !ok {
		return out, nil
	}
	if err := json.Unmarshal([]byte(data), &out); err != nil {
		return nil, fmt.Errorf("configmap %s/%s: annotation %s: %w", s.Namespace, s.Name, StateAnnotation, err)
	}
	return out, nil
}

// Save writes the state, creating the ConfigMap when it is missing.
func (s ConfigMapState) Save(ctx context.Context, projects map[string]ProjectState) error {
	data, err := json.Marshal(projects)
	if err != nil {
		return err
	}
	err = s.save(ctx, string(data))
	if apierrors.IsConflict(err) || apierrors.IsAlreadyExists(err) {
		err = s.save(ctx, string(data))
	}
	if err != nil {
		return fmt.Errorf("configmap %s/%s: %w", s.Namespace, s.Name, err)
	}
	return nil
}

func (s ConfigMapState) save(ctx context.Context, data string) error {
	rc := s.Client.Resource(configMaps).Namespace(s.Namespace)
	cm, err := rc.Get(ctx, s.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		cm = &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{
			"name": s.Name, "namespace": s.Namespace,
			"labels":      map[string]any{"app.kubernetes.io/name": "kubeplan", "app.kubernetes.io/component": "notify-state"},
			"annotations": map[string]any{StateAnnotation: data},
		}}}
		_, err = rc.Create(ctx, cm, metav1.CreateOptions{FieldManager: "kubeplan-serve"})
		return err
	}
	if err != nil {
		return err
	}
	ann := cm.GetAnnotations()
	if ann == nil {
		ann = map[string]string{}
	}
	if ann[StateAnnotation] == data {
		return nil
	}
	ann[StateAnnotation] = data
	cm.SetAnnotations(ann)
	_, err = rc.Update(ctx, cm, metav1.UpdateOptions{FieldManager: "kubeplan-serve"}) // on the resourceVersion read
	return err
}
