// Package faultproxy is a TCP proxy for fault tests: it stands between a
// client (kubeplan) and a server (the testcluster's API server) and, on
// command, cuts every connection, stalls them, or delays every chunk.
//
// It forwards bytes and nothing else, so TLS passes through untouched: a
// kubeconfig whose server URL names the proxy's address (KubeconfigVia)
// works as long as the server certificate is valid for 127.0.0.1, which the
// testcluster's is (the port is no part of the certificate).
//
//	p := faultproxy.Start(t, target)        // or ForKubeconfig(t, kubeconfig)
//	kc := faultproxy.KubeconfigVia(t, kubeconfig, p)
//	p.Latency(20 * time.Millisecond)        // every chunk arrives 20 ms late
//	p.Stall()                               // connections stay open, nothing moves
//	p.Cut()                                 // every connection closed, new ones refused
//	p.Heal()                                // back to forwarding
//
// It is a test library (test/faults uses it), never linked into kubeplan;
// it listens on 127.0.0.1 only and dials only the target it is given.
package faultproxy
