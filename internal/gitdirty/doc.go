// Package gitdirty tells whether the tracked files of a git work tree
// differ from HEAD, as git status does, for the cost of one lstat per
// tracked file: HEAD's tree is compared with the index, and each index
// entry with its file's size, modification time and mode, a file being
// read and hashed only when those do not match the index (or the file
// changed in the instant the index was written: git's racy case), and
// HEAD's tree is not read at all when the index caches it (git's
// cache-tree). Unlike go-git's Status, Dirty never walks the work tree:
// untracked and ignored files do not make a work tree dirty. Changes
// lists the paths git status shows, untracked ones found with one walk
// that reads the .gitignore files as it goes and skips ignored
// directories.
package gitdirty
