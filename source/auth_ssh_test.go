package source

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/binary"
	"encoding/pem"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// sshGitServer serves git-upload-pack over ssh on 127.0.0.1 to clients
// holding clientKey; it returns its address and host key.
func sshGitServer(t *testing.T, clientKey ssh.PublicKey) (string, ssh.PublicKey) {
	t.Helper()
	_, hostPriv, _ := ed25519.GenerateKey(rand.Reader)
	hostSigner, err := ssh.NewSignerFromKey(hostPriv)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &ssh.ServerConfig{PublicKeyCallback: func(_ ssh.ConnMetadata, k ssh.PublicKey) (*ssh.Permissions, error) {
		if string(k.Marshal()) != string(clientKey.Marshal()) {
			return nil, os.ErrPermission
		}
		return nil, nil
	}}
	cfg.AddHostKey(hostSigner)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			go serveSSH(nc, cfg)
		}
	}()
	return ln.Addr().String(), hostSigner.PublicKey()
}

func serveSSH(nc net.Conn, cfg *ssh.ServerConfig) {
	_, chans, reqs, err := ssh.NewServerConn(nc, cfg)
	if err != nil {
		return
	}
	go ssh.DiscardRequests(reqs)
	for nch := range chans {
		ch, chReqs, err := nch.Accept()
		if err != nil {
			continue
		}
		go func() {
			defer ch.Close()
			for req := range chReqs {
				if req.Type != "exec" {
					_ = req.Reply(false, nil)
					continue
				}
				n := binary.BigEndian.Uint32(req.Payload)
				command := string(req.Payload[4 : 4+n])
				_ = req.Reply(true, nil)
				prog, arg, _ := strings.Cut(command, " ")
				cmd := exec.Command(prog, strings.Trim(arg, "'"))
				cmd.Stdin, cmd.Stdout, cmd.Stderr = ch, ch, ch.Stderr()
				status := make([]byte, 4)
				if err := cmd.Run(); err != nil {
					binary.BigEndian.PutUint32(status, 1)
				}
				_, _ = ch.SendRequest("exit-status", false, status)
				return
			}
		}()
	}
}

// Over ssh with a deploy key, the server's host key must be in
// known_hosts: a matching entry fetches, another host's key refuses.
func TestGitAuthFilesSSHKnownHosts(t *testing.T) {
	dir := t.TempDir()
	bare := filepath.Join(dir, "deploy.git")
	work := filepath.Join(dir, "work")
	run := func(d string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir = d
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run(dir, "init", "-q", "--bare", "-b", "main", bare)
	run(dir, "init", "-q", "-b", "main", work)
	if err := os.WriteFile(filepath.Join(work, "cm.yaml"), []byte("kind: ConfigMap\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(work, "add", "-A")
	run(work, "commit", "-q", "-m", "first")
	run(work, "push", "-q", bare, "main")

	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(dir, "id_ed25519")
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	clientPub, _ := ssh.NewPublicKey(pub)
	addr, hostKey := sshGitServer(t, clientPub)
	url := "ssh://git@" + addr + bare

	known := filepath.Join(dir, "known_hosts")
	if err := os.WriteFile(known, []byte(knownhosts.Line([]string{knownhosts.Normalize(addr)}, hostKey)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rev, err := Git{URL: url, Ref: "main", CacheDir: filepath.Join(dir, "cache"), Files: AuthFiles{SSHKeyFile: keyFile, KnownHostsFile: known}}.Sync(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(rev.Dir, "cm.yaml")); err != nil {
		t.Errorf("the checkout lacks cm.yaml: %v", err)
	}

	_, otherPriv, _ := ed25519.GenerateKey(rand.Reader)
	other, _ := ssh.NewSignerFromKey(otherPriv)
	wrong := filepath.Join(dir, "known_hosts_other")
	if err := os.WriteFile(wrong, []byte(knownhosts.Line([]string{knownhosts.Normalize(addr)}, other.PublicKey())+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = Git{URL: url, Ref: "main", CacheDir: filepath.Join(dir, "cache2"), Files: AuthFiles{SSHKeyFile: keyFile, KnownHostsFile: wrong}}.Sync(context.Background())
	if err == nil || !strings.Contains(err.Error(), "key mismatch") {
		t.Errorf("a host key not in known_hosts: err = %v", err)
	}
}
