package reference

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// client is the HTTP client for wire w: c itself, or, for a variant that
// tampers with requests, c behind a transport that does.
func (b breaks) client(c *http.Client, w traffic.Wire) *http.Client {
	if b.tamper == nil {
		return c
	}
	return Tamper(c, w, func(_ int, req *traffic.Request) { b.tamper(req) })
}

// Tamper returns a deliberately broken client: c (nil means
// http.DefaultClient) behind a transport that decodes each request body as
// wire w, lets fn break it, and sends it encoded again. call counts the
// requests from 0.
func Tamper(c *http.Client, w traffic.Wire, fn func(call int, req *traffic.Request)) *http.Client {
	if c == nil {
		c = http.DefaultClient
	}
	next := c.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	out := *c
	out.Transport = &tamperer{next: next, codec: providers.For(w), fn: fn}
	return &out
}

// tamperer decodes each request body, lets fn break it, and sends the
// request encoded again.
type tamperer struct {
	next  http.RoundTripper
	codec providers.Codec
	fn    func(call int, req *traffic.Request)

	mu    sync.Mutex
	calls int
}

func (tp *tamperer) RoundTrip(r *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(r.Body)
	r.Body.Close()
	if err != nil {
		return nil, err
	}
	req, err := tp.codec.DecodeRequest(body)
	if err != nil {
		return nil, fmt.Errorf("reference: tampering: %w", err)
	}
	tp.mu.Lock()
	call := tp.calls
	tp.calls++
	tp.mu.Unlock()
	tp.fn(call, req)
	if body, err = tp.codec.EncodeRequest(req); err != nil {
		return nil, fmt.Errorf("reference: tampering: %w", err)
	}
	r = r.Clone(r.Context())
	r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	return tp.next.RoundTrip(r)
}
