// Package rollhash computes what makes a pod template roll when the
// ConfigMaps and Secrets it reads change: a digest of each object's data,
// one digest over those of a template's references (Template), and the
// pod template's metadata an annotation goes into (TemplateMeta).
//
// A ConfigMap's digest is a SHA-256 of its data. A Secret's is an
// HMAC-SHA256 keyed by a random key (NewKey) kept on the Secret itself
// (KeyAnnotation): without the key, which only those who may read the
// Secret can see, the digest says nothing about the values, however few
// the values it could be. The package is pure: no I/O but reading the
// random source in NewKey.
package rollhash
