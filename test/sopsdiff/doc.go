// Command sopsdiff installs the peer of kubeplan's SOPS decryption, the
// sops CLI v3.13.3, built from the Go module proxy into .bench/sops/bin
// (gitignored), and its tests are the differential suite against it:
//
//	go run ./test/sopsdiff        # make test runs it before go test ./...
//	go test ./test/sopsdiff
//
// The suite takes every SOPS fixture (testdata/sops/kustomize, made with
// that sops CLI for the age key in testdata/sops/age-test-key.txt: a
// kustomization with secretGenerator and configMapGenerator inputs in
// every format SOPS writes, a Secret whose data values are SOPS
// documents, an encrypted patch and a Component; and Flux's own test data,
// where it is staged: internal/testing/publicdata) and checks that what
// `sops -d` prints is what kubeplan decrypts, byte for byte, and what
// kubeplan puts in the objects it would apply; and that a file whose MAC
// does not match is refused by both. sops never runs with a network: the tests set
// SOPS_DISABLE_VERSION_CHECK and never ask it for its version.
package main
