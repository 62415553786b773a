// Package gitdirty tells whether the tracked files of a git work tree
// differ from HEAD, as git status does, for the cost of one lstat per
// tracked file: HEAD's tree is compared with the index, and each index
// entry with its file's size, modification time and mode, a file being
// read and hashed only when those do not match the index (or the file
// changed in the instant the index was written: git's racy case). Unlike
// go-git's Status it never walks the work tree: untracked and ignored
// files are not looked at (they do not make a work tree dirty).
package gitdirty
