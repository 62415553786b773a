//go:build unix

package cachedir

import (
	"io/fs"
	"os"
	"syscall"
)

func ownedByCurrentUser(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
