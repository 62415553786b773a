package render

import (
	"bytes"
	"net"
	"testing"
)

func TestServeListening(t *testing.T) {
	var b bytes.Buffer
	ServeListening(&b, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080})
	if got, want := b.String(), "kubeplan serve: listening on 127.0.0.1:8080\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
