// Package sops reads files encrypted with SOPS (https://getsops.io) in
// process: it recognises them, decrypts their values with age or PGP keys
// and verifies their MAC, without the sops binary and without SOPS's cloud
// KMS providers (which would add tens of megabytes to kubeplan; see
// docs/sops.md).
//
// The format, as SOPS v3 writes it for YAML:
//   - the file's first document holds a top-level "sops" mapping: the
//     data key encrypted for each recipient (age, pgp, kms, ...), the MAC,
//     lastmodified and the rules that chose which values are encrypted
//     (unencrypted_suffix, encrypted_regex, ...);
//   - every encrypted value is a string
//     ENC[AES256_GCM,data:...,iv:...,tag:...,type:str|int|float|bool|...],
//     AES-256-GCM under the data key, with the mapping keys on the way to it
//     joined by ":" (plus a trailing ":") as additional data;
//   - the MAC is SHA-512 over every value of every document (the plaintext,
//     in document order; only the encrypted ones with mac_only_encrypted),
//     encrypted under the data key with lastmodified as additional data.
//
// Decrypt works on the YAML node trees in place, so positions of every
// field stay those of the file. Plaintext never touches disk, and every
// value decrypted is recorded for the life of the process (Revealed), so
// that every output hides it (Scrub) wherever it was copied.
package sops
