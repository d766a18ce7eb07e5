package reference

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync"

	"github.com/llmtck/llmtck/conformance/simulator"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// The fault-handling variants: each breaks how the engine retries a
// failed call, the ways real harnesses ship.
const (
	// VariantKeepFailedPartial keeps the text a failed stream had sent
	// before its error and sends it, as an assistant message, in the
	// retry. Targets RETRY-001.
	VariantKeepFailedPartial Variant = "keep-failed-partial"
	// VariantRerunToolsOnRetry runs the tools of the last step again when
	// the call after them fails, as a harness that retries the whole
	// iteration does. Targets RETRY-002.
	VariantRerunToolsOnRetry Variant = "rerun-tools-on-retry"
	// VariantIgnoreRetryAfter retries on its own backoff, never reading
	// retry-after-ms or retry-after. Targets RETRY-003.
	VariantIgnoreRetryAfter Variant = "ignore-retry-after"
)

// FaultVariants lists the fault-handling variants.
var FaultVariants = []Variant{VariantKeepFailedPartial, VariantRerunToolsOnRetry, VariantIgnoreRetryAfter}

// retryTransport breaks what the engine does around a failed call. It
// sees every answer (teed, never buffered) and every request.
type retryTransport struct {
	next    http.RoundTripper
	variant Variant
	wire    traffic.Wire
	codec   providers.Codec
	tools   map[string]simulator.Tool
	ctx     context.Context

	mu      sync.Mutex
	failed  bool   // the last answer failed
	partial string // the text it had sent
}

// retryBreak wraps c's transport for a fault-handling variant; c itself
// for any other.
func retryBreak(ctx context.Context, c *http.Client, v Variant, w traffic.Wire, s *simulator.Session) *http.Client {
	switch v {
	case VariantKeepFailedPartial, VariantRerunToolsOnRetry, VariantIgnoreRetryAfter:
	default:
		return c
	}
	if c == nil {
		c = http.DefaultClient
	}
	next := c.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	tools := map[string]simulator.Tool{}
	for _, t := range s.Tools {
		tools[t.Name] = t
	}
	out := *c
	out.Transport = &retryTransport{next: next, variant: v, wire: w, codec: providers.For(w), tools: tools, ctx: ctx}
	return &out
}

func (rt *retryTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rt.mu.Lock()
	failed, partial := rt.failed, rt.partial
	rt.mu.Unlock()
	if failed && r.Body != nil {
		body, err := io.ReadAll(r.Body)
		r.Body.Close()
		if err != nil {
			return nil, err
		}
		if req, err := rt.codec.DecodeRequest(body); err == nil {
			switch rt.variant {
			case VariantKeepFailedPartial:
				if partial != "" {
					req.Messages = append(req.Messages, traffic.Message{Role: traffic.RoleAssistant, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: partial}}})
					if b, err := rt.codec.EncodeRequest(req); err == nil {
						body = b
					}
				}
			case VariantRerunToolsOnRetry:
				rt.rerun(req)
			}
		}
		r = r.Clone(r.Context())
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	}
	resp, err := rt.next.RoundTrip(r)
	if err != nil {
		rt.note(true, "")
		return resp, err
	}
	if rt.variant == VariantIgnoreRetryAfter {
		resp.Header.Del("Retry-After")
		resp.Header.Del("Retry-After-Ms")
	}
	resp.Body = &teeBody{rc: resp.Body, done: func(data []byte, readErr error) {
		d, _ := rt.codec.DecodeResponse(resp.StatusCode, resp.Header, data)
		switch {
		case d != nil && d.Error != nil:
			rt.note(true, textOfMsgs(d.Output))
		case readErr != nil || resp.StatusCode >= 300 || d == nil || d.Stream != nil && !d.Stream.Complete:
			rt.note(true, "")
		default:
			rt.note(false, "")
		}
	}}
	return resp, nil
}

func (rt *retryTransport) note(failed bool, partial string) {
	rt.mu.Lock()
	rt.failed, rt.partial = failed, partial
	rt.mu.Unlock()
}

// rerun runs again the tools whose results close req: the calls of the
// assistant message before the trailing tool results.
func (rt *retryTransport) rerun(req *traffic.Request) {
	i := len(req.Messages)
	for i > 0 && onlyResults(req.Messages[i-1]) {
		i--
	}
	if i == len(req.Messages) || i == 0 || req.Messages[i-1].Role != traffic.RoleAssistant {
		return
	}
	for _, b := range req.Messages[i-1].Blocks {
		if t, ok := rt.tools[b.Name]; ok && b.Type == traffic.BlockToolCall {
			t.Call(rt.ctx, b.Input)
		}
	}
}

// onlyResults reports a message that holds tool results and nothing else,
// none of them an error (a cancelled call is not run again).
func onlyResults(m traffic.Message) bool {
	if len(m.Blocks) == 0 {
		return false
	}
	for _, b := range m.Blocks {
		if b.Type != traffic.BlockToolResult || b.IsError {
			return false
		}
	}
	return true
}

func textOfMsgs(msgs []traffic.Message) string {
	var s string
	for _, m := range msgs {
		for _, b := range m.Blocks {
			if b.Type == traffic.BlockText {
				s += b.Text
			}
		}
	}
	return s
}

// teeBody keeps what the client reads of a body and tells done once the
// body ends, with the error it ended on (nil at its end).
type teeBody struct {
	rc   io.ReadCloser
	buf  bytes.Buffer
	done func([]byte, error)
	once sync.Once
}

func (t *teeBody) Read(p []byte) (int, error) {
	n, err := t.rc.Read(p)
	t.buf.Write(p[:n])
	if err != nil {
		e := err
		if err == io.EOF {
			e = nil
		}
		t.once.Do(func() { t.done(t.buf.Bytes(), e) })
	}
	return n, err
}

func (t *teeBody) Close() error {
	t.once.Do(func() { t.done(t.buf.Bytes(), io.ErrUnexpectedEOF) })
	return t.rc.Close()
}
