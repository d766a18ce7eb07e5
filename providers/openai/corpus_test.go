package openai_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/golden"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/providers/openai"
	"github.com/llmtck/llmtck/traffic"
)

// chatCall is one chat completions interaction of the corpus.
type chatCall struct {
	file  string // corpus name
	index int    // position in its cassette
	*cassette.Interaction
}

func (c chatCall) String() string { return fmt.Sprintf("%s#%d", c.file, c.index) }

// chatCalls loads every chat completions interaction of the real corpus
// (OpenAI, Groq, OpenRouter), by endpoint path.
func chatCalls(t testing.TB) []chatCall {
	t.Helper()
	var calls []chatCall
	for _, p := range corpus.Files(t) {
		c, err := cassette.Load(p)
		if err != nil {
			continue // other formats are other packages' business
		}
		for i, it := range c.Interactions {
			if strings.HasSuffix(it.Request.URL, "/chat/completions") {
				calls = append(calls, chatCall{corpus.Name(t, p), i, it})
			}
		}
	}
	if len(calls) < 21 {
		t.Fatalf("found %d chat completions interactions in the corpus, want at least 21", len(calls))
	}
	return calls
}

// Every corpus request survives decode → encode: same JSON value, same
// model, opaque tokens byte for byte.
func TestCorpusRequestsRoundTrip(t *testing.T) {
	for _, c := range chatCalls(t) {
		t.Run(c.String(), func(t *testing.T) { roundTrip(t, c.Request.Body) })
	}
}

// Every corpus response decodes; an accepted call has no error and a
// complete, clean stream; a rejected call carries the provider's error.
func TestCorpusResponses(t *testing.T) {
	for _, c := range chatCalls(t) {
		t.Run(c.String(), func(t *testing.T) {
			r, err := openai.Codec{}.DecodeResponse(c.Response.Status, c.Response.Header, c.Response.Body)
			if err != nil {
				t.Fatal(err)
			}
			accepted := c.Response.Status >= 200 && c.Response.Status < 300
			switch {
			case accepted && r.Error != nil:
				t.Errorf("accepted call decoded an error: %+v", r.Error)
			case !accepted && (r.Error == nil || r.Error.Message == ""):
				t.Errorf("HTTP %d decoded no error message", c.Response.Status)
			case accepted && len(r.Output) == 0:
				t.Error("accepted call has no output")
			}
			if s := r.Stream; s != nil && (!s.Complete || s.Truncated || len(s.Issues) > 0) {
				t.Errorf("real stream judged faulty: complete=%v truncated=%v issues=%+v", s.Complete, s.Truncated, s.Issues)
			}
		})
	}
}

// The decoded model of each corpus file is pinned in testdata/corpus;
// rewrite with `go test -update`.
func TestCorpusGolden(t *testing.T) {
	byFile := map[string][]chatCall{}
	var order []string
	for _, c := range chatCalls(t) {
		if byFile[c.file] == nil {
			order = append(order, c.file)
		}
		byFile[c.file] = append(byFile[c.file], c)
	}
	for _, file := range order {
		t.Run(file, func(t *testing.T) {
			var out []traffic.Exchange
			for _, c := range byFile[file] {
				ex := traffic.Exchange{Index: c.index, Method: c.Request.Method, URL: c.Request.URL, Status: c.Response.Status, Wire: traffic.WireOpenAI}
				var err error
				if ex.Request, err = (openai.Codec{}).DecodeRequest(c.Request.Body); err != nil {
					ex.RequestErr = err.Error()
				}
				if ex.Response, err = (openai.Codec{}).DecodeResponse(c.Response.Status, c.Response.Header, c.Response.Body); err != nil {
					ex.ResponseErr = err.Error()
				}
				out = append(out, ex)
			}
			b, err := json.MarshalIndent(out, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			name := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
			golden.Assert(t, string(b)+"\n", filepath.Join("corpus", name+".golden.json"))
		})
	}
}
