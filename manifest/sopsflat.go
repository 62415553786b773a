package manifest

import (
	"errors"

	"github.com/kubeplan/kubeplan/internal/sops"
)

// DecryptFlat decrypts a SOPS file of format (dec.Decrypt), or verifies
// its MAC when keys are given (lint); the problem says why it failed, at
// the file's line.
func DecryptFlat(file string, data []byte, format sops.Format, dec Decryption) ([]byte, *Problem) {
	if !dec.Decrypt && dec.Keys.Empty() {
		return nil, nil
	}
	if dec.Decrypt && dec.KeysErr != nil {
		return nil, &Problem{File: file, Pos: Pos{1, 1}, Rule: RuleSOPSDecrypt,
			Message: "SOPS-encrypted " + format.String() + " file does not decrypt: reading the keys: " + dec.KeysErr.Error()}
	}
	plain, err := sops.DecryptFile(data, format, format, dec.Keys)
	if err == nil {
		return plain, nil
	}
	return nil, sopsProblem(file, Pos{1, 1}, format, err)
}

// sopsProblem is a sops-decrypt problem for err, at its line when it
// names one (else at pos).
func sopsProblem(file string, pos Pos, format sops.Format, err error) *Problem {
	var se *sops.Error
	msg := err.Error()
	if errors.As(err, &se) {
		if se.Line > 0 {
			pos = Pos{se.Line, max(se.Col, 1)}
		}
		msg = se.Err.Error()
	}
	return &Problem{File: file, Pos: pos, Rule: RuleSOPSDecrypt,
		Message: sops.Scrub("SOPS-encrypted " + format.String() + " file does not decrypt: " + msg)}
}
