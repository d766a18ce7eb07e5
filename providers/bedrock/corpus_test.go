package bedrock_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gotest.tools/v3/golden"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/providers/bedrock"
	"github.com/llmtck/llmtck/traffic"
)

var codec bedrock.Codec

// call is one Converse interaction of a corpus recording.
type call struct {
	file  string // corpus name
	index int
	in    *cassette.Interaction
}

// corpusCalls loads every Bedrock Converse interaction of the real corpus.
func corpusCalls(tb testing.TB) []call {
	tb.Helper()
	var calls []call
	for _, path := range corpus.SetFiles(tb, "wave2") {
		c, err := cassette.Load(path)
		if err != nil {
			tb.Fatalf("%s: %v", path, err)
		}
		name := corpus.Name(tb, path)
		for i, in := range c.Interactions {
			if isConverse(name, in) {
				calls = append(calls, call{file: name, index: i, in: in})
			}
		}
	}
	if len(calls) < 15 {
		tb.Fatalf("found only %d Bedrock Converse interactions in the corpus", len(calls))
	}
	return calls
}

// isConverse tells Converse calls by their URL; a response-only fixture has
// none and is named after the provider.
func isConverse(file string, in *cassette.Interaction) bool {
	u := in.Request.URL
	if u == "" {
		return strings.Contains(file, "amazon-bedrock")
	}
	return strings.Contains(u, "/model/") && (strings.HasSuffix(u, "/converse") || strings.HasSuffix(u, "/converse-stream"))
}

// TestCorpusRequestsRoundTrip decodes every real request, encodes it back,
// and demands the same JSON value, the same model on a second decode, and
// every opaque token byte for byte as it was in the original body.
func TestCorpusRequestsRoundTrip(t *testing.T) {
	n, signed := 0, 0
	for _, c := range corpusCalls(t) {
		body := c.in.Request.Body
		if len(body) == 0 {
			continue
		}
		n++
		req, err := codec.DecodeRequest(body)
		if err != nil {
			t.Errorf("%s #%d: decode: %v", c.file, c.index, err)
			continue
		}
		enc, err := codec.EncodeRequest(req)
		if err != nil {
			t.Errorf("%s #%d: encode: %v", c.file, c.index, err)
			continue
		}
		if !rawjson.Equal(enc, body) {
			t.Errorf("%s #%d: encoded body is not the same JSON value\noriginal: %s\nencoded:  %s", c.file, c.index, body, enc)
		}
		again, err := codec.DecodeRequest(enc)
		if err != nil {
			t.Errorf("%s #%d: decode of the encoded body: %v", c.file, c.index, err)
			continue
		}
		if d := cmp.Diff(req, again); d != "" {
			t.Errorf("%s #%d: decode(encode(decode(b))) differs (-first +second):\n%s", c.file, c.index, d)
		}
		for _, tok := range opaqueTokens(req) {
			if !bytes.Contains(body, tok) || !bytes.Contains(enc, tok) {
				t.Errorf("%s #%d: opaque token %.40s… not carried verbatim", c.file, c.index, tok)
			}
		}
		for _, m := range req.Messages {
			for _, b := range m.Blocks {
				if b.Type == traffic.BlockThinking && len(b.Signature) > 0 {
					signed++
				}
			}
		}
	}
	if n < 10 {
		t.Fatalf("round-tripped only %d request bodies", n)
	}
	if signed == 0 {
		t.Fatal("no request in the corpus echoed a signed reasoning block; the signature path went untested")
	}
}

// opaqueTokens lists the raw tokens the codec must never rewrite.
func opaqueTokens(req *traffic.Request) [][]byte {
	var out [][]byte
	var walk func([]traffic.Block)
	walk = func(bs []traffic.Block) {
		for _, b := range bs {
			for _, tok := range []json.RawMessage{b.Signature, b.Data, b.Input, b.ResultRaw, b.Raw} {
				if len(tok) > 0 {
					out = append(out, tok)
				}
			}
			walk(b.Content)
		}
	}
	walk(req.System)
	for _, m := range req.Messages {
		walk(m.Blocks)
	}
	return out
}

// TestCorpusGolden pins what every real Converse interaction decodes to.
// Rewrite with: go test ./providers/bedrock -run TestCorpusGolden -update
func TestCorpusGolden(t *testing.T) {
	type decoded struct {
		Interaction int               `json:"interaction"`
		Status      int               `json:"status"`
		Request     *traffic.Request  `json:"request,omitempty"`
		Response    *traffic.Response `json:"response,omitempty"`
	}
	byFile := map[string][]decoded{}
	var files []string
	for _, c := range corpusCalls(t) {
		d := decoded{Interaction: c.index, Status: c.in.Response.Status}
		if len(c.in.Request.Body) > 0 {
			req, err := codec.DecodeRequest(c.in.Request.Body)
			if err != nil {
				t.Fatalf("%s #%d: request: %v", c.file, c.index, err)
			}
			d.Request = req
		}
		resp, err := codec.DecodeResponse(c.in.Response.Status, c.in.Response.Header, c.in.Response.Body)
		if err != nil {
			t.Fatalf("%s #%d: response: %v", c.file, c.index, err)
		}
		d.Response = resp
		if _, seen := byFile[c.file]; !seen {
			files = append(files, c.file)
		}
		byFile[c.file] = append(byFile[c.file], d)
	}
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			out, err := json.MarshalIndent(byFile[f], "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			name := strings.NewReplacer("/", "__", "[", "_", "]", "_").Replace(f) + ".golden"
			golden.Assert(t, string(out)+"\n", filepath.Join("corpus", name))
		})
	}
}

// TestCorpusStreams: every recorded ConverseStream reassembles into a
// complete message whose tool inputs are JSON and whose reasoning, where
// the model signs it, carries its signature.
func TestCorpusStreams(t *testing.T) {
	n := 0
	for _, c := range corpusCalls(t) {
		if c.in.Response.Status != 200 {
			continue
		}
		resp, err := codec.DecodeResponse(c.in.Response.Status, c.in.Response.Header, c.in.Response.Body)
		if err != nil {
			t.Fatalf("%s #%d: %v", c.file, c.index, err)
		}
		if resp.Stream == nil {
			continue
		}
		n++
		if !resp.Stream.Complete || len(resp.Stream.Issues) > 0 || resp.Stream.Error != nil {
			t.Errorf("%s #%d: stream not complete and clean: %+v", c.file, c.index, resp.Stream)
		}
		for _, m := range resp.Output {
			for _, b := range m.Blocks {
				if b.Type == traffic.BlockToolCall && !json.Valid(b.Input) {
					t.Errorf("%s #%d: tool input %q is not JSON", c.file, c.index, b.Input)
				}
			}
		}
	}
	if n < 4 {
		t.Fatalf("only %d ConverseStream responses in the corpus", n)
	}
}
