package main

// schemaKube is the k8s.io/kubernetes release whose OpenAPI v3 spec becomes
// the embedded JSON schemas. Its minor is kubeplan's default --kube-version.
const schemaKube = "v1.37.2"

// indexedKube are the k8s.io/kubernetes releases (one per minor, oldest
// first) whose discovery documents say which APIs each minor serves.
var indexedKube = []string{"v1.33.13", "v1.34.4", "v1.35.4", "v1.36.3", "v1.37.2"}

// apiModule is the k8s.io/api release whose prerelease-lifecycle methods give
// the introduced/deprecated/removed table.
const apiModule = "k8s.io/api@v0.37.2"

const kubeModule = "k8s.io/kubernetes"
