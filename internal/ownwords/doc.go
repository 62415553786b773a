// Package ownwords knows the words kubeplan's own reports are made of (the
// summary line, the actions, the states) and tells whether hiding a value
// everywhere it appears would hide them.
//
// Values are hidden by substring: the runner's ::add-mask::, the scrubbing
// of a pull-request comment, of a job summary and of every line printed
// once a SOPS value was decrypted. A pull request chooses its Secrets'
// values, and can encrypt one to the repository's public SOPS key, so a
// value of "to prune" would make "Plan: 0 to add, 0 to change, 3 ***." of
// a plan that prunes. Such a value is not hidden by substring (it is still
// masked where it is a Secret's value): see Forges.
package ownwords
