package main
import (
 _ "github.com/spf13/cobra"
 _ "go.yaml.in/yaml/v3"
 _ "sigs.k8s.io/kustomize/api/krusty"
 _ "sigs.k8s.io/kustomize/kyaml/filesys"
 _ "github.com/yannh/kubeconform/pkg/registry"
 _ "github.com/santhosh-tekuri/jsonschema/v6"
 _ "github.com/rogpeppe/go-internal/testscript"
 _ "github.com/google/cel-go/cel"
 _ "github.com/bmatcuk/doublestar/v4"
)
func main(){}
