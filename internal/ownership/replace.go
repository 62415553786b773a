package ownership

// ReplaceAnnotation set to "allow" on an object in the manifests lets apply
// delete and recreate it when the plan says replace (docs/helm.md).
const ReplaceAnnotation = "kubeplan.dev/replace"
