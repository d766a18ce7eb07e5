package proxy

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	aopt "github.com/anthropics/anthropic-sdk-go/option"
	"github.com/openai/openai-go"
	oopt "github.com/openai/openai-go/option"
	"github.com/openai/openai-go/responses"

	"github.com/llmtck/llmtck/cassette"
)

// capture keeps every response body a client receives, verbatim.
type capture struct {
	next   http.RoundTripper
	mu     sync.Mutex
	bodies [][]byte
}

func (c *capture) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := c.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	resp.Body = &captured{ReadCloser: resp.Body, c: c}
	return resp, nil
}

type captured struct {
	io.ReadCloser
	c   *capture
	buf bytes.Buffer
}

func (b *captured) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.buf.Write(p[:n])
	if err == io.EOF {
		b.c.mu.Lock()
		b.c.bodies = append(b.c.bodies, bytes.Clone(b.buf.Bytes()))
		b.c.mu.Unlock()
	}
	return n, err
}

// sdkCall makes one call with an official SDK and sums up what the SDK
// understood of the answer. base is the SDK's base URL.
type sdkCall func(ctx context.Context, hc *http.Client, base string) (string, error)

func anthropicCall(stream bool) sdkCall {
	return func(ctx context.Context, hc *http.Client, base string) (string, error) {
		c := anthropic.NewClient(aopt.WithAPIKey("test-key"), aopt.WithHTTPClient(hc), aopt.WithMaxRetries(0), aopt.WithBaseURL(base))
		params := anthropic.MessageNewParams{
			Model:     "claude-sonnet-4-5",
			MaxTokens: 1024,
			Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("What is the weather in Paris?"))},
		}
		var m anthropic.Message
		if stream {
			s := c.Messages.NewStreaming(ctx, params)
			for s.Next() {
				if err := m.Accumulate(s.Current()); err != nil {
					return "", err
				}
			}
			if err := s.Err(); err != nil {
				return "", err
			}
		} else {
			res, err := c.Messages.New(ctx, params)
			if err != nil {
				return "", err
			}
			m = *res
		}
		var kinds []string
		for _, b := range m.Content {
			kinds = append(kinds, b.Type)
		}
		return fmt.Sprintf("%s %s %v", m.ID, m.StopReason, kinds), nil
	}
}

func chatCall(stream bool) sdkCall {
	return func(ctx context.Context, hc *http.Client, base string) (string, error) {
		c := openai.NewClient(oopt.WithAPIKey("test-key"), oopt.WithHTTPClient(hc), oopt.WithMaxRetries(0), oopt.WithBaseURL(base))
		params := openai.ChatCompletionNewParams{
			Model:    openai.ChatModelGPT4o,
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("What is the weather in Paris?")},
		}
		if !stream {
			res, err := c.Chat.Completions.New(ctx, params)
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("%s %s %d tool calls", res.ID, res.Choices[0].FinishReason, len(res.Choices[0].Message.ToolCalls)), nil
		}
		s := c.Chat.Completions.NewStreaming(ctx, params)
		var acc openai.ChatCompletionAccumulator
		for s.Next() {
			acc.AddChunk(s.Current())
		}
		if err := s.Err(); err != nil {
			return "", err
		}
		return fmt.Sprintf("%s %s %d tool calls", acc.ID, acc.Choices[0].FinishReason, len(acc.Choices[0].Message.ToolCalls)), nil
	}
}

func responsesCall(stream bool) sdkCall {
	return func(ctx context.Context, hc *http.Client, base string) (string, error) {
		c := openai.NewClient(oopt.WithAPIKey("test-key"), oopt.WithHTTPClient(hc), oopt.WithMaxRetries(0), oopt.WithBaseURL(base))
		params := responses.ResponseNewParams{
			Model: "gpt-5",
			Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("What is the weather in Paris?")},
		}
		var res responses.Response
		if stream {
			s := c.Responses.NewStreaming(ctx, params)
			for s.Next() {
				if ev := s.Current(); ev.Type == "response.completed" {
					res = ev.Response
				}
			}
			if err := s.Err(); err != nil {
				return "", err
			}
		} else {
			r, err := c.Responses.New(ctx, params)
			if err != nil {
				return "", err
			}
			res = *r
		}
		var kinds []string
		for _, it := range res.Output {
			kinds = append(kinds, it.Type)
		}
		return fmt.Sprintf("%s %s %v", res.ID, res.Status, kinds), nil
	}
}

var sdkCases = []struct {
	name    string
	fixture string // corpus recording whose first response the provider sends
	path    string // the SDK's base path on the provider host
	host    string // the provider host the SDK calls by default
	call    sdkCall
}{
	{"anthropic", antThinking, "/", "api.anthropic.com", anthropicCall(false)},
	{"anthropic-stream", antStream, "/", "api.anthropic.com", anthropicCall(true)},
	{"chat", chatJSON, "/v1/", "api.openai.com", chatCall(false)},
	{"chat-stream", chatStream, "/v1/", "api.openai.com", chatCall(true)},
	{"responses", respJSON, "/v1/", "api.openai.com", responsesCall(false)},
	{"responses-stream", respStream, "/v1/", "api.openai.com", responsesCall(true)},
}

// The official SDKs work through every route llmtck offers — the base-URL
// recorder, the HTTPS forward proxy with the generated CA, and replay of
// what each recorded — and every replayed body is byte-identical to the
// recorded one.
func TestOfficialSDKs(t *testing.T) {
	ca, err := LoadOrCreateCA(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range sdkCases {
		t.Run(tc.name, func(t *testing.T) {
			fixture := &loadCorpus(t, tc.fixture).Interactions[0].Response
			dir := t.TempDir()
			file := filepath.Join(dir, "base-url.yaml")

			// 1. base-URL recorder.
			up := newProvider(t, false, fixture)
			rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: file})
			u, _ := url.Parse(up.URL)
			front := httptest.NewServer(NewHandler(rec, u))
			defer front.Close()
			cap1 := &capture{next: http.DefaultTransport}
			want, err := tc.call(ctx, &http.Client{Transport: cap1}, front.URL+tc.path)
			if err != nil {
				t.Fatalf("through record: %v", err)
			}
			t.Logf("the SDK understood: %s", want)
			if !bytes.Equal(cap1.bodies[0], fixture.Body) {
				t.Fatal("record: the SDK did not get the provider's bytes")
			}
			if err := rec.Close(); err != nil {
				t.Fatal(err)
			}

			// 2. forward proxy: the SDK calls the real host name; TLS is
			// intercepted with the llmtck CA, the provider is a local TLS server.
			tlsUp := newProvider(t, true, fixture)
			prec := mustRecorder(t, Options{Mode: ModeRecord, Dir: dir, Upstream: upstreamTo(tlsUp)})
			fwd := httptest.NewServer(NewForward(prec, ForwardOptions{CA: ca}))
			defer fwd.Close()
			hc := viaProxy(fwd.URL, ca)
			cap2 := &capture{next: hc.Transport}
			got, err := tc.call(ctx, &http.Client{Transport: cap2}, "https://"+tc.host+tc.path)
			if err != nil {
				t.Fatalf("through proxy: %v", err)
			}
			if got != want || !bytes.Equal(cap2.bodies[0], fixture.Body) {
				t.Fatalf("proxy: SDK saw %q (record: %q), bytes equal %v", got, want, bytes.Equal(cap2.bodies[0], fixture.Body))
			}
			if err := prec.Close(); err != nil {
				t.Fatal(err)
			}

			// 3. replay of both, with nothing upstream.
			up.Close()
			tlsUp.Close()
			rp := mustRecorder(t, Options{Mode: ModeReplay, Cassette: file})
			back := httptest.NewServer(NewHandler(rp, nil))
			defer back.Close()
			cap3 := &capture{next: http.DefaultTransport}
			if got, err := tc.call(ctx, &http.Client{Transport: cap3}, back.URL+tc.path); err != nil || got != want {
				t.Fatalf("replay: SDK saw %q, %v; want %q", got, err, want)
			}
			pr := mustRecorder(t, Options{Mode: ModeReplay, Dir: dir, Upstream: failingUpstream(t)})
			pfwd := httptest.NewServer(NewForward(pr, ForwardOptions{CA: ca}))
			defer pfwd.Close()
			cap4 := &capture{next: viaProxy(pfwd.URL, ca).Transport}
			if got, err := tc.call(ctx, &http.Client{Transport: cap4}, "https://"+tc.host+tc.path); err != nil || got != want {
				t.Fatalf("proxy replay: SDK saw %q, %v; want %q", got, err, want)
			}
			for i, c := range []*capture{cap3, cap4} {
				if !bytes.Equal(c.bodies[0], fixture.Body) {
					t.Errorf("replay %d: body not byte-identical to the recording", i)
				}
			}
			for _, path := range []string{file, CassetteFor(dir, tc.host)} {
				c, err := cassette.Load(path)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(c.Interactions[0].Response.Body, fixture.Body) {
					t.Errorf("%s: recorded body differs from what the provider sent", filepath.Base(path))
				}
				if strings.Contains(string(c.Interactions[0].Request.Header.Get("Authorization")+c.Interactions[0].Request.Header.Get("X-Api-Key")), "test-key") {
					t.Errorf("%s: the API key reached the cassette", filepath.Base(path))
				}
			}
		})
	}
}

// failingUpstream fails the test if replay ever reaches for the network.
func failingUpstream(t *testing.T) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		t.Errorf("replay sent %s %s upstream", req.Method, req.URL)
		return nil, fmt.Errorf("no network in replay")
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
