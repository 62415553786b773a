package faultproxy

import (
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"
)

// Proxy forwards TCP connections from its listener to a target address.
type Proxy struct {
	target string
	ln     net.Listener

	mu      sync.Mutex
	conns   map[*link]struct{}
	cut     bool
	stalled bool
	healed  chan struct{} // closed (and replaced) when a stall ends or a cut happens
	latency time.Duration
	closed  bool
	stats   Stats

	wg sync.WaitGroup
}

// Stats counts what the proxy saw, for tests and failure messages.
type Stats struct {
	Accepted int   // connections accepted and forwarded
	Refused  int   // connections closed at once because the proxy was cut
	Cuts     int   // connections closed by Cut
	Bytes    int64 // bytes forwarded, both directions
}

// link is one proxied connection: the client's side and the server's.
type link struct {
	client, server net.Conn
	once           sync.Once
	done           chan struct{}
}

func (l *link) close() {
	l.once.Do(func() {
		close(l.done)
		l.client.Close()
		l.server.Close()
	})
}

// New listens on 127.0.0.1:0 and forwards to target (host:port). Close
// stops it.
func New(target string) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{target: target, ln: ln, conns: map[*link]struct{}{}, healed: make(chan struct{})}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// Start is New for a test: it fails t if the proxy cannot listen and
// closes the proxy when t ends.
func Start(t testing.TB, target string) *Proxy {
	t.Helper()
	p, err := New(target)
	if err != nil {
		t.Fatalf("faultproxy: %v", err)
	}
	t.Cleanup(p.Close)
	return p
}

// Addr is the proxy's address, 127.0.0.1:PORT.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Target is the address the proxy forwards to.
func (p *Proxy) Target() string { return p.target }

// Stats returns the counters so far.
func (p *Proxy) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stats
}

// Cut closes every open connection now and closes every new one as soon as
// it is accepted, until Heal.
func (p *Proxy) Cut() {
	p.mu.Lock()
	p.cut = true
	links := make([]*link, 0, len(p.conns))
	for l := range p.conns {
		links = append(links, l)
	}
	p.stats.Cuts += len(links)
	p.mu.Unlock()
	for _, l := range links {
		l.close()
	}
}

// Stall keeps connections open (and accepts new ones) but forwards no byte
// in either direction until Heal (or Cut, which closes them).
func (p *Proxy) Stall() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stalled = true
}

// Latency delays every chunk by d in each direction (0: none). A chunk is
// delivered d after it was read, so requests in flight together are
// delayed together, not one after another.
func (p *Proxy) Latency(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.latency = d
}

// Heal ends a Cut and a Stall: new connections are forwarded again, and
// stalled ones resume. Latency stays as set.
func (p *Proxy) Heal() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = false
	if p.stalled {
		p.stalled = false
		close(p.healed)
		p.healed = make(chan struct{})
	}
}

// Close stops listening, closes every connection and waits for the
// proxy's goroutines. Closing twice is fine.
func (p *Proxy) Close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	p.mu.Unlock()
	p.ln.Close()
	p.Cut()
	p.wg.Wait()
}

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue
		}
		p.mu.Lock()
		cut := p.cut || p.closed
		if cut {
			p.stats.Refused++
		}
		p.mu.Unlock()
		if cut {
			abort(c)
			continue
		}
		p.wg.Add(1)
		go p.serve(c)
	}
}

// abort closes c with a reset rather than a clean FIN where it can: a cut
// network looks like that to the client.
func abort(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	c.Close()
}

func (p *Proxy) serve(client net.Conn) {
	defer p.wg.Done()
	server, err := net.DialTimeout("tcp", p.target, 10*time.Second)
	if err != nil {
		abort(client)
		return
	}
	l := &link{client: client, server: server, done: make(chan struct{})}
	p.mu.Lock()
	if p.cut || p.closed {
		p.stats.Refused++
		p.mu.Unlock()
		abort(client)
		server.Close()
		return
	}
	p.conns[l] = struct{}{}
	p.stats.Accepted++
	p.mu.Unlock()

	var pumps sync.WaitGroup
	pumps.Add(2)
	go func() { defer pumps.Done(); p.pump(l, server, client) }()
	go func() { defer pumps.Done(); p.pump(l, client, server) }()
	pumps.Wait()
	l.close()
	p.mu.Lock()
	delete(p.conns, l)
	p.mu.Unlock()
}

// chunk is what one read returned, stamped with when it is due.
type chunk struct {
	data []byte
	due  time.Time
	eof  bool
}

// pump copies src to dst through a queue: the reader stamps each chunk
// with its due time (now + latency), the writer waits until then, and
// until no Stall is in force, before writing it.
func (p *Proxy) pump(l *link, dst, src net.Conn) {
	queue := make(chan chunk, 64)
	go func() {
		defer close(queue)
		for {
			buf := make([]byte, 32<<10)
			n, err := src.Read(buf)
			if n > 0 {
				p.mu.Lock()
				d := p.latency
				p.mu.Unlock()
				select {
				case queue <- chunk{data: buf[:n], due: time.Now().Add(d)}:
				case <-l.done:
					return
				}
			}
			if err != nil {
				if err == io.EOF {
					select {
					case queue <- chunk{eof: true}:
					case <-l.done:
					}
				}
				return
			}
		}
	}()
	sawEOF := false
	for c := range queue {
		if wait := time.Until(c.due); wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-l.done:
				t.Stop()
				return
			}
		}
		if !p.waitUnstalled(l) {
			return
		}
		if c.eof {
			// Half-close: the other direction may still have bytes to send.
			if tc, ok := dst.(*net.TCPConn); ok {
				_ = tc.CloseWrite()
				sawEOF = true
				continue
			}
			l.close()
			return
		}
		if _, err := dst.Write(c.data); err != nil {
			l.close()
			return
		}
		p.mu.Lock()
		p.stats.Bytes += int64(len(c.data))
		p.mu.Unlock()
	}
	// The reader ended on an error other than EOF: the connection is broken
	// (or was closed), so both directions end.
	if !sawEOF {
		l.close()
	}
}

// waitUnstalled blocks while the proxy is stalled; false when the link
// was closed meanwhile.
func (p *Proxy) waitUnstalled(l *link) bool {
	for {
		p.mu.Lock()
		stalled, healed := p.stalled, p.healed
		p.mu.Unlock()
		if !stalled {
			select {
			case <-l.done:
				return false
			default:
				return true
			}
		}
		select {
		case <-healed:
		case <-l.done:
			return false
		}
	}
}
