package gctune

import (
	"io/fs"
	"testing"
)

func TestServe(t *testing.T) {
	files := func(m map[string]string) func(string) ([]byte, error) {
		return func(p string) ([]byte, error) {
			if v, ok := m[p]; ok {
				return []byte(v), nil
			}
			return nil, fs.ErrNotExist
		}
	}
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	const v2, v1 = "/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"
	for _, tc := range []struct {
		name   string
		env    map[string]string
		files  map[string]string
		gc     int
		limit  int64
		String string
	}{
		{"no cgroup", nil, nil, 50, 0, "GOGC=50"},
		{"v2 unlimited", nil, map[string]string{v2: "max\n"}, 50, 0, "GOGC=50"},
		{"v2 256Mi", nil, map[string]string{v2: "268435456\n"}, 50, 187904819, "GOGC=50, GOMEMLIMIT=179MiB (70% of the container's 256MiB)"},
		{"v1 unlimited", nil, map[string]string{v1: "9223372036854771712\n"}, 50, 0, "GOGC=50"},
		{"v1 512Mi", nil, map[string]string{v1: "536870912"}, 50, 375809638, "GOGC=50, GOMEMLIMIT=358MiB (70% of the container's 512MiB)"},
		{"v2 unreadable value", nil, map[string]string{v2: "lots"}, 50, 0, "GOGC=50"},
		{"the user's GOGC", map[string]string{"GOGC": "200"}, map[string]string{v2: "268435456"}, 0, 187904819, "GOMEMLIMIT=179MiB (70% of the container's 256MiB)"},
		{"the user's GOMEMLIMIT", map[string]string{"GOMEMLIMIT": "100MiB"}, map[string]string{v2: "268435456"}, 50, 0, "GOGC=50"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Serve(env(tc.env), files(tc.files))
			if s.GCPercent != tc.gc || s.MemoryLimit != tc.limit || s.String() != tc.String {
				t.Fatalf("got %+v %q, want GOGC %d, limit %d, %q", s, s.String(), tc.gc, tc.limit, tc.String)
			}
		})
	}
}
