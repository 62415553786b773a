package admission

import "k8s.io/apimachinery/pkg/runtime/schema"

type (
	schemaGVR = schema.GroupVersionResource
	schemaGVK = schema.GroupVersionKind
)
