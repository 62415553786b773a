package source

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
)

// The token file is read again at every use: a rotated Secret is used
// from the next fetch on.
func TestGitAuthFilesTokenRotates(t *testing.T) {
	f := filepath.Join(t.TempDir(), "token")
	u, err := parseGitURL("https://git.example.com/acme/deploy.git")
	if err != nil {
		t.Fatal(err)
	}
	files := AuthFiles{TokenFile: f}
	for _, token := range []string{"first-token", "second-token"} {
		if err := os.WriteFile(f, []byte(token+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		a, err := files.auth(u)
		if err != nil {
			t.Fatal(err)
		}
		if b, ok := a.(*githttp.BasicAuth); !ok || b.Password != token || b.Username != tokenUser {
			t.Fatalf("auth = %#v, want basic auth with %s", a, token)
		}
	}
	if msg, _ := u.redact("fetch failed for second-token"); strings.Contains(msg, "second-token") {
		t.Errorf("the token is not redacted: %s", msg)
	}
}

// ssh is refused without known_hosts, and credential files that do not
// fit the URL's scheme are refused, before any connection.
func TestGitAuthFilesRefusals(t *testing.T) {
	dir := t.TempDir()
	key := filepath.Join(dir, "id")
	if err := os.WriteFile(key, []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		url   string
		files AuthFiles
		want  string
	}{
		{"ssh://git@git.example.com/acme/deploy.git", AuthFiles{SSHKeyFile: key}, "known_hosts"},
		{"git@git.example.com:acme/deploy.git", AuthFiles{SSHKeyFile: key}, "refusing to connect"},
		{"https://git.example.com/acme/deploy.git", AuthFiles{SSHKeyFile: key, KnownHostsFile: key}, "ssh URL"},
		{"ssh://git@git.example.com/acme/deploy.git", AuthFiles{TokenFile: key}, "https URL"},
		{"https://git.example.com/acme/deploy.git", AuthFiles{TokenFile: filepath.Join(dir, "missing")}, "token file"},
	}
	for _, c := range cases {
		_, err := Git{URL: c.url, Ref: "main", Files: c.files, CacheDir: dir}.Sync(context.Background())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %+v: err = %v, want %q", c.url, c.files, err, c.want)
		}
	}
}
