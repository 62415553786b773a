// Package confine is the one way kubeplan reads a file the repository
// names: manifests, kubeplan.yaml, policies and CRDs, policy test files,
// Helm values files and schemas.
//
// Everything in a pull request's checkout is written by its author, so a
// path it names (or a path the workflow names that the checkout turned into
// a symbolic link) must not lead anywhere else on the runner. The rules:
//
//   - A path is resolved (symbolic links followed) and must lie inside its
//     root, itself resolved: Resolve, Within. A link to nowhere is refused
//     when it points outside, so that the error never tells whether a file
//     exists outside the root.
//   - Only a regular file is opened (CheckRegular): never a FIFO (which
//     would block), a device (/dev/zero is endless), a socket or a
//     directory. It is opened with O_NONBLOCK and checked to be the file
//     that was inspected (ReadFile).
//   - A file is size-checked before it is read and while it is read
//     (ReadLimited): at most MaxFileBytes, or a smaller limit given by the
//     caller (ReadFileLimit).
//
// The root of a run is the checkout (Checkout): the top of the git work
// tree holding the working directory, else the working directory. A path
// lexically inside it is confined to it (RootFor); a path the workflow
// names outside it is the workflow's choice and keeps its own root.
//
// A refusal is an error wrapping ErrRefused that names the path, what it
// resolves to and why; a refused file is never opened, so its content can
// appear nowhere.
package confine
