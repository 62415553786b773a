package kube

import (
	"net/http"
	"strings"
	"sync"
)

// RequestCounter counts requests by HTTP method.
type RequestCounter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *RequestCounter) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(r *http.Request) (*http.Response, error) {
		c.mu.Lock()
		if c.n == nil {
			c.n = map[string]int{}
		}
		key := r.Method
		switch {
		case r.URL.Query().Get("dryRun") != "":
			key += " (dry-run)"
		case strings.HasSuffix(r.URL.Path, "accessreviews"), strings.HasSuffix(r.URL.Path, "rulesreviews"):
			key += " (review)"
		}
		c.n[key]++
		c.mu.Unlock()
		return rt.RoundTrip(r)
	})
}

// Count returns how many requests of method were made ("PATCH",
// "PATCH (dry-run)", "GET", ...).
func (c *RequestCounter) Count(method string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[method]
}

// Writes counts requests that change the cluster: POST, PUT, PATCH and
// DELETE that are neither dry-runs nor access reviews.
func (c *RequestCounter) Writes() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n["POST"] + c.n["PUT"] + c.n["PATCH"] + c.n["DELETE"]
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// Total counts every request made.
func (c *RequestCounter) Total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, v := range c.n {
		n += v
	}
	return n
}
