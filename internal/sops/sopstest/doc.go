// Package sopstest encrypts YAML files the way SOPS does, for tests that
// make their own age key (filippo.io/age) and need an encrypted file for
// it: the decrypter in internal/sops is checked against files made by
// SOPS itself (testdata/sops), and this encryptor against that decrypter.
//
// It is a test library: only _test.go files import it, never kubeplan's
// product code. (It sits beside internal/sops rather than under
// internal/testing/ because it is that package's mirror image.)
package sopstest
