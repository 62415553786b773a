// Command image builds kubeplan's container image without Docker: the
// static linux binary, CA certificates and a non-root user (65532) as two
// layers over no base, ENTRYPOINT ["kubeplan"], written as an OCI image
// layout and as a tarball `docker load` reads. `make image` runs it.
//
// It is a module of its own, like testcluster/, so that its dependency
// (go-containerregistry) never enters kubeplan's go.mod.
package main
