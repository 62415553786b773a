package faultproxy

import (
	"bufio"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// echoServer answers every line with the same line; closed when t ends.
func echoServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				_, _ = io.Copy(c, c)
			}()
		}
	}()
	return ln.Addr().String()
}

// client is one connection through the proxy.
type client struct {
	t *testing.T
	c net.Conn
	r *bufio.Reader
}

func dial(t *testing.T, p *Proxy) *client {
	t.Helper()
	c, err := net.DialTimeout("tcp", p.Addr(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &client{t: t, c: c, r: bufio.NewReader(c)}
}

// roundTrip sends line and returns the echo, or an error (a deadline of
// within elapses as an error too).
func (c *client) roundTrip(line string, within time.Duration) (string, error) {
	c.c.SetDeadline(time.Now().Add(within))
	if _, err := io.WriteString(c.c, line+"\n"); err != nil {
		return "", err
	}
	got, err := c.r.ReadString('\n')
	return strings.TrimSuffix(got, "\n"), err
}

func (c *client) mustEcho(line string) {
	c.t.Helper()
	got, err := c.roundTrip(line, 5*time.Second)
	if err != nil || got != line {
		c.t.Fatalf("echo of %q through the proxy: %q, %v", line, got, err)
	}
}

func TestForwards(t *testing.T) {
	p := Start(t, echoServer(t))
	c := dial(t, p)
	c.mustEcho("hello")
	c.mustEcho(strings.Repeat("x", 100<<10)) // larger than one chunk
	if s := p.Stats(); s.Accepted != 1 || s.Bytes == 0 {
		t.Errorf("stats %+v, want one accepted connection and bytes forwarded", s)
	}
}

func TestCutClosesOpenAndRefusesNewUntilHeal(t *testing.T) {
	p := Start(t, echoServer(t))
	c := dial(t, p)
	c.mustEcho("before")
	p.Cut()
	if _, err := c.roundTrip("during", 5*time.Second); err == nil {
		t.Fatal("an open connection still echoes after Cut")
	} else if isTimeout(err) {
		t.Fatalf("an open connection hangs after Cut instead of closing: %v", err)
	}
	// A new connection is closed at once (reset: the dial itself may see it).
	if n, err := net.DialTimeout("tcp", p.Addr(), 5*time.Second); err == nil {
		cl := &client{t: t, c: n, r: bufio.NewReader(n)}
		if _, err := cl.roundTrip("new", 5*time.Second); err == nil || isTimeout(err) {
			t.Fatalf("a new connection during the cut: %v, want it closed", err)
		}
		n.Close()
	}
	p.Heal()
	dial(t, p).mustEcho("after")
	if s := p.Stats(); s.Cuts != 1 || s.Refused != 1 {
		t.Errorf("stats %+v, want 1 cut and 1 refused", s)
	}
}

func TestStallHoldsBytesUntilHeal(t *testing.T) {
	p := Start(t, echoServer(t))
	c := dial(t, p)
	c.mustEcho("before")
	p.Stall()
	if _, err := c.roundTrip("held", 300*time.Millisecond); !isTimeout(err) {
		t.Fatalf("a stalled connection answered: %v, want a timeout", err)
	}
	// New connections are accepted and stay open, silent too.
	n := dial(t, p)
	if _, err := n.roundTrip("new", 300*time.Millisecond); !isTimeout(err) {
		t.Fatalf("a new connection during the stall: %v, want a timeout", err)
	}
	p.Heal()
	// The held line arrives now (it was written before the timeout).
	c.c.SetDeadline(time.Now().Add(5 * time.Second))
	if got, err := c.r.ReadString('\n'); err != nil || got != "held\n" {
		t.Fatalf("after Heal: %q, %v, want the held line", got, err)
	}
	c.mustEcho("after")
	n.c.SetDeadline(time.Now().Add(5 * time.Second))
	if got, err := n.r.ReadString('\n'); err != nil || got != "new\n" {
		t.Fatalf("new connection after Heal: %q, %v", got, err)
	}
}

func TestCutEndsAStall(t *testing.T) {
	p := Start(t, echoServer(t))
	c := dial(t, p)
	p.Stall()
	if _, err := c.roundTrip("held", 200*time.Millisecond); !isTimeout(err) {
		t.Fatalf("stalled: %v", err)
	}
	p.Cut()
	c.c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.r.ReadString('\n'); err == nil || isTimeout(err) {
		t.Fatalf("a stalled connection after Cut: %v, want it closed", err)
	}
	p.Heal()
	dial(t, p).mustEcho("after")
}

func TestLatency(t *testing.T) {
	p := Start(t, echoServer(t))
	c := dial(t, p)
	c.mustEcho("warm")
	const d = 200 * time.Millisecond
	p.Latency(d)
	start := time.Now()
	c.mustEcho("slow")
	if rtt := time.Since(start); rtt < 2*d || rtt > 2*d+time.Second {
		t.Errorf("round trip %s with latency %s each way, want about %s", rtt, d, 2*d)
	}
	// Latency delays, it does not serialize: a second chunk sent just after
	// the first arrives just after it, not a whole latency later.
	c.c.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(c.c, "first\n")
	time.Sleep(20 * time.Millisecond)
	io.WriteString(c.c, "second\n")
	var at [2]time.Time
	for i, want := range []string{"first\n", "second\n"} {
		got, err := c.r.ReadString('\n')
		if err != nil || got != want {
			t.Fatalf("pipelined echo %d: %q, %v", i, got, err)
		}
		at[i] = time.Now()
	}
	if gap := at[1].Sub(at[0]); gap > d/2+20*time.Millisecond {
		t.Errorf("the second chunk arrived %s after the first (sent 20 ms after it): chunks are delayed one after another, not together", gap)
	}
	p.Latency(0)
	start = time.Now()
	c.mustEcho("fast")
	if rtt := time.Since(start); rtt > d {
		t.Errorf("round trip %s after Latency(0)", rtt)
	}
}

func TestCloseEndsEverything(t *testing.T) {
	p := Start(t, echoServer(t))
	c := dial(t, p)
	c.mustEcho("x")
	p.Close()
	if _, err := c.roundTrip("y", 5*time.Second); err == nil || isTimeout(err) {
		t.Fatalf("after Close: %v, want the connection closed", err)
	}
	if _, err := net.DialTimeout("tcp", p.Addr(), time.Second); err == nil {
		t.Error("the proxy still accepts after Close")
	}
	p.Close() // twice is fine
}

func TestKubeconfigVia(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "ca.crt"), []byte("x"), 0o600)
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["c"] = &clientcmdapi.Cluster{Server: "https://127.0.0.1:6443", CertificateAuthority: "ca.crt"}
	cfg.AuthInfos["u"] = &clientcmdapi.AuthInfo{Token: "secret"}
	cfg.Contexts["ctx"] = &clientcmdapi.Context{Cluster: "c", AuthInfo: "u", Namespace: "ns"}
	cfg.CurrentContext = "ctx"
	path := filepath.Join(dir, "admin.kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		t.Fatal(err)
	}
	if addr, err := ServerAddr(path); err != nil || addr != "127.0.0.1:6443" {
		t.Fatalf("ServerAddr: %q, %v", addr, err)
	}
	p := Start(t, "127.0.0.1:6443")
	out := KubeconfigVia(t, path, p)
	got, err := clientcmd.LoadFromFile(out)
	if err != nil {
		t.Fatal(err)
	}
	cl := got.Clusters["c"]
	if cl.Server != "https://"+p.Addr() {
		t.Errorf("server %q, want https://%s", cl.Server, p.Addr())
	}
	if cl.CertificateAuthority != filepath.Join(dir, "ca.crt") || cl.TLSServerName != "" {
		t.Errorf("CA %q, server name %q: want the absolute CA path and no server name", cl.CertificateAuthority, cl.TLSServerName)
	}
	if got.AuthInfos["u"].Token != "secret" || got.Contexts["ctx"].Namespace != "ns" {
		t.Error("credentials or namespace lost in the copy")
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
