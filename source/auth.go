package source

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/transport"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	gitssh "github.com/go-git/go-git/v5/plumbing/transport/ssh"
)

// AuthFiles are credentials read from files, as a Kubernetes Secret
// mounted into a pod provides them. Each file is read again at every Sync,
// so a rotated Secret is used from the next fetch on; what they hold never
// appears in a message.
type AuthFiles struct {
	// TokenFile holds a token for an http(s) URL, sent as the password of
	// basic auth (user x-access-token: GitHub, Gitea and GitLab accept it).
	TokenFile string
	// SSHKeyFile is an unencrypted private key (a deploy key) for an ssh
	// URL. KnownHostsFile is the known_hosts the server's host key is
	// checked against; a key without it is refused.
	SSHKeyFile     string
	KnownHostsFile string
}

// tokenUser is the basic-auth user sent with a token.
const tokenUser = "x-access-token"

// set reports whether any file is named.
func (f AuthFiles) set() bool {
	return f.TokenFile != "" || f.SSHKeyFile != "" || f.KnownHostsFile != ""
}

// auth reads the files for s and returns the authentication to use; the
// token is added to s's secrets before anything can fail.
func (f AuthFiles) auth(s *gitURL) (transport.AuthMethod, error) {
	switch s.proto {
	case "http", "https":
		if f.SSHKeyFile != "" || f.KnownHostsFile != "" {
			return nil, errors.New("an ssh key and known_hosts go with an ssh URL, not " + s.proto)
		}
		if f.TokenFile == "" {
			return s.defaultAuth()
		}
		b, err := os.ReadFile(f.TokenFile)
		if err != nil {
			return nil, fmt.Errorf("reading the token file: %w", err)
		}
		token := strings.TrimSpace(string(b))
		if token == "" {
			return nil, fmt.Errorf("the token file %s is empty", f.TokenFile)
		}
		s.secrets = append(s.secrets, token)
		return &githttp.BasicAuth{Username: tokenUser, Password: token}, nil
	case "ssh":
		if f.TokenFile != "" {
			return nil, errors.New("a token goes with an https URL, not ssh")
		}
		if f.KnownHostsFile == "" {
			return nil, errors.New("ssh needs a known_hosts file to check the server's host key (--git-known-hosts-file); refusing to connect without one")
		}
		hostKeys, err := gitssh.NewKnownHostsCallback(f.KnownHostsFile)
		if err != nil {
			return nil, fmt.Errorf("reading known_hosts %s: %w", f.KnownHostsFile, err)
		}
		user := s.user
		if user == "" {
			user = gitssh.DefaultUsername
		}
		if f.SSHKeyFile == "" {
			return nil, errors.New("ssh needs a private key file (--git-ssh-key-file)")
		}
		keys, err := gitssh.NewPublicKeysFromFile(user, f.SSHKeyFile, "")
		if err != nil {
			return nil, fmt.Errorf("reading the ssh key %s: %w", f.SSHKeyFile, err)
		}
		keys.HostKeyCallback = hostKeys
		return keys, nil
	}
	return nil, fmt.Errorf("credential files do not apply to a %s URL", s.proto)
}

// CheckFiles refuses, before any connection, credential files that do
// not fit the URL (a token with ssh, a key with https), ssh without
// known_hosts, and files that cannot be read: a reconciler reports a
// wrong setup at start instead of at every fetch.
func (g Git) CheckFiles() error {
	if !g.Files.set() {
		return nil
	}
	s, err := parseGitURL(g.URL)
	if err != nil {
		return err
	}
	if _, err := g.Files.auth(s); err != nil {
		return s.errorf(g.Ref, "%v", err)
	}
	return nil
}
