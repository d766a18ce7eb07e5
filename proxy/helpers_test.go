package proxy

import (
	"bytes"
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	govcr "github.com/dnaeon/go-vcr/v2/cassette"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/checks"
	"github.com/llmtck/llmtck/conformance/lint"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/internal/sse"
)

// Real recordings from other projects, served by the fake providers below.
const (
	antStream    = "docker__cagent/e2e__testdata__cassettes__TestExec_Anthropic_ToolCall.yaml"
	antThinking  = "pydantic__pydantic-ai/tests__models__cassettes__test_anthropic__test_anthropic_tool_with_thinking.yaml"
	antAnswer    = "pydantic__pydantic-ai/tests__models__cassettes__test_anthropic__test_anthropic_model_thinking_part.yaml"
	chatJSON     = "pydantic__pydantic-ai/tests__models__cassettes__test_openai__test_openai_tool_output.yaml"
	chatStream   = "docker__cagent/e2e__testdata__cassettes__TestRuntime_MultiAgent_SessionReload.yaml"
	respStream   = "docker__cagent/e2e__testdata__cassettes__TestExec_ToolCallsNeedAcceptance.yaml"
	respJSON     = "pydantic__pydantic-ai/tests__models__cassettes__test_openai_responses__test_openai_responses_thinking_with_tool_calls.yaml"
	chatRepeated = "traceloop__openllmetry/packages__opentelemetry-instrumentation-openai__tests__traces__cassettes__test_chat__test_chat_tool_calls.yaml"
)

func loadCorpus(t testing.TB, name string) *cassette.Cassette {
	t.Helper()
	c, err := cassette.Load(filepath.Join(corpus.Dir(t), name))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// provider is a fake provider speaking the wire of the recordings it is
// given: each call gets the next recorded response, streamed event by event
// with gap between events when it is a stream.
type provider struct {
	*httptest.Server
	mu        sync.Mutex
	responses []*cassette.Response
	next      int
	gap       time.Duration
	requests  []*http.Request
	bodies    [][]byte
}

func newProvider(t testing.TB, tls bool, responses ...*cassette.Response) *provider {
	p := &provider{responses: responses}
	h := http.HandlerFunc(p.serve)
	if tls {
		p.Server = httptest.NewTLSServer(h)
	} else {
		p.Server = httptest.NewServer(h)
	}
	t.Cleanup(p.Close)
	return p
}

func responsesOf(c *cassette.Cassette) []*cassette.Response {
	var out []*cassette.Response
	for _, in := range c.Interactions {
		out = append(out, &in.Response)
	}
	return out
}

func (p *provider) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	p.mu.Lock()
	p.requests = append(p.requests, r)
	p.bodies = append(p.bodies, body)
	resp := p.responses[p.next%len(p.responses)]
	p.next++
	p.mu.Unlock()
	for k, vs := range resp.Header {
		if k == "Content-Length" || k == "Content-Encoding" || k == "Transfer-Encoding" {
			continue
		}
		w.Header()[k] = vs
	}
	if w.Header().Get("Content-Type") == "" {
		if sse.Looks(resp.Body) {
			w.Header().Set("Content-Type", "text/event-stream")
		} else {
			w.Header().Set("Content-Type", "application/json")
		}
	}
	w.WriteHeader(resp.Status)
	if !strings.HasPrefix(w.Header().Get("Content-Type"), "text/event-stream") {
		w.Write(resp.Body)
		return
	}
	rc := http.NewResponseController(w)
	rc.Flush()
	prev := 0
	for i, ev := range sse.Parse(resp.Body) {
		if i > 0 && p.gap > 0 {
			time.Sleep(p.gap)
		}
		w.Write(resp.Body[prev:ev.End])
		rc.Flush()
		prev = ev.End
	}
	w.Write(resp.Body[prev:])
}

// loadStock loads a cassette with stock go-vcr v2.1.0, as users' tools do.
func loadStock(t testing.TB, path string) *govcr.Cassette {
	t.Helper()
	c, err := govcr.Load(strings.TrimSuffix(path, ".yaml"))
	if err != nil {
		t.Fatalf("stock go-vcr cannot load %s: %v", path, err)
	}
	return c
}

// syncBuffer is a log writer tests can read while servers write to it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func mustRecorder(t testing.TB, opts Options) *Recorder {
	t.Helper()
	r, err := NewRecorder(opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func post(t testing.TB, client *http.Client, url string, body []byte, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest("POST", url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading the body: %v", err)
	}
	return resp, got
}

// upstreamTo returns a transport that sends every call, whatever its host,
// to the fake provider p (a TLS server), as the real provider would be
// reached. It fails the test if asked for anything else.
func upstreamTo(p *provider) *http.Transport { return upstreamToServer(p.Server) }

func upstreamToServer(p *httptest.Server) *http.Transport {
	tr := NewUpstream()
	addr := p.Listener.Addr().String()
	tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}
	tr.TLSClientConfig = &tls.Config{RootCAs: p.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs, ServerName: "example.com"}
	return tr
}

// viaProxy returns a client that uses proxyURL as its HTTPS_PROXY and trusts
// only the llmtck CA, as a harness configured per `llmtck proxy --print-ca`.
func viaProxy(proxyURL string, ca *CA) *http.Client {
	u, _ := url.Parse(proxyURL)
	return &http.Client{Transport: &http.Transport{
		Proxy:           http.ProxyURL(u),
		TLSClientConfig: &tls.Config{RootCAs: ca.Pool()},
	}}
}

// eventTimes reads a streamed body and returns when each event arrived.
func eventTimes(t testing.TB, body io.Reader) ([]time.Time, []byte) {
	t.Helper()
	var (
		times []time.Time
		all   []byte
		buf   = make([]byte, 64<<10)
	)
	seen := 0
	for {
		n, err := body.Read(buf)
		now := time.Now()
		all = append(all, buf[:n]...)
		for _, ev := range sse.Parse(all)[seen:] {
			if !ev.Unterminated {
				times = append(times, now)
				seen++
			}
		}
		if err == io.EOF {
			return times, all
		}
		if err != nil {
			t.Fatalf("reading the stream: %v", err)
		}
	}
}

// catalogue builds a judge with every check, as llmtck does.
func catalogue() Judge { return lint.New(checks.All()) }

// judgeIf is catalogue when on, and no judge otherwise.
func judgeIf(on bool) func() Judge {
	if on {
		return catalogue
	}
	return nil
}
