package gemini_test

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
	"github.com/llmtck/llmtck/providers/gemini"
	"github.com/llmtck/llmtck/traffic"
)

var codec gemini.Codec

// call is one Gemini interaction of a corpus recording.
type call struct {
	file  string // corpus name
	index int
	in    *cassette.Interaction
}

// corpusCalls loads every Gemini interaction of the real corpus.
func corpusCalls(tb testing.TB) []call {
	tb.Helper()
	var calls []call
	for _, path := range corpus.Files(tb) {
		c, err := cassette.Load(path)
		if err != nil {
			tb.Fatalf("%s: %v", path, err)
		}
		name := corpus.Name(tb, path)
		for i, in := range c.Interactions {
			if isGemini(name, in) {
				calls = append(calls, call{file: name, index: i, in: in})
			}
		}
	}
	if len(calls) < 10 {
		tb.Fatalf("found only %d Gemini interactions in the corpus", len(calls))
	}
	return calls
}

// isGemini tells Gemini calls by their URL; a response-only fixture has
// none and is named after the provider.
func isGemini(file string, in *cassette.Interaction) bool {
	u := in.Request.URL
	if u == "" {
		return strings.Contains(strings.ToLower(file), "google")
	}
	return strings.Contains(u, ":generateContent") || strings.Contains(u, ":streamGenerateContent")
}

// TestCorpusRequestsRoundTrip decodes every real request, encodes it back,
// and demands the same JSON value, the same model on a second decode, and
// every opaque token byte for byte as it was in the original body.
func TestCorpusRequestsRoundTrip(t *testing.T) {
	n := 0
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
	}
	if n < 9 {
		t.Fatalf("round-tripped only %d request bodies", n)
	}
}

// opaqueTokens lists the raw tokens the codec must never rewrite.
func opaqueTokens(req *traffic.Request) [][]byte {
	var out [][]byte
	var walk func([]traffic.Block)
	walk = func(bs []traffic.Block) {
		for _, b := range bs {
			for _, tok := range []json.RawMessage{b.Signature, b.Input, b.ResultRaw, b.Source, b.Raw} {
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

// TestCorpusGolden pins what every real Gemini interaction decodes to.
// Rewrite with: go test ./providers/gemini -run TestCorpusGolden -update
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

// find returns the interaction of the corpus file whose name contains file.
func find(t *testing.T, calls []call, file string, index int) *cassette.Interaction {
	t.Helper()
	for _, c := range calls {
		if strings.Contains(c.file, file) && c.index == index {
			return c.in
		}
	}
	t.Fatalf("no interaction %d in a corpus file named like %q", index, file)
	return nil
}

func mustRequest(t *testing.T, in *cassette.Interaction) *traffic.Request {
	t.Helper()
	req, err := codec.DecodeRequest(in.Request.Body)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

func mustResponse(t *testing.T, in *cassette.Interaction) *traffic.Response {
	t.Helper()
	resp, err := codec.DecodeResponse(in.Response.Status, in.Response.Header, in.Response.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func sigBytes(t *testing.T, raw json.RawMessage) []byte {
	t.Helper()
	b, err := gemini.SignatureBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCorpusTrailingSignature: Gemini 3 streams the signature on a trailing
// part with empty text; it stays its own block, after the text, in place.
func TestCorpusTrailingSignature(t *testing.T) {
	calls := corpusCalls(t)
	for _, file := range []string{"Google_Gemini3ProPreview", "google-reasoning-gemini3"} {
		t.Run(file, func(t *testing.T) {
			in := find(t, calls, file, 0)
			resp := mustResponse(t, in)
			if !resp.Stream.Complete || resp.Stream.Truncated || len(resp.Stream.Issues) > 0 {
				t.Fatalf("stream facts: %+v", resp.Stream)
			}
			if resp.StopReason != "STOP" || len(resp.Output) != 1 {
				t.Fatalf("stop %q, %d messages", resp.StopReason, len(resp.Output))
			}
			blocks := resp.Output[0].Blocks
			if len(blocks) != 2 {
				t.Fatalf("want the text and the signature part as two blocks, got %d: %+v", len(blocks), blocks)
			}
			text, sig := blocks[0], blocks[1]
			if text.Type != traffic.BlockText || text.Text == "" || text.Signature != nil {
				t.Errorf("first block: %+v", text)
			}
			if sig.Type != traffic.BlockText || sig.Text != "" || len(sig.Signature) == 0 {
				t.Errorf("second block should be an empty text part with the signature: %+v", sig)
			}
			if !bytes.Contains(in.Response.Body, sig.Signature) {
				t.Errorf("signature is not the raw token of the body")
			}
			last := resp.Stream.Events - 1
			if ev, part, ok := gemini.StreamOrigin(sig.Path); !ok || ev != last || part != 0 {
				t.Errorf("signature block path %q: want event %d part 0", sig.Path, last)
			}
		})
	}
}

// TestCorpusVercelMergesText: three chunks, two text parts merged into one
// block, the signature part kept apart.
func TestCorpusVercelMergesText(t *testing.T) {
	resp := mustResponse(t, find(t, corpusCalls(t), "google-reasoning-gemini3", 0))
	want := "There are **3** \"r\"s in strawberry.\n\nSt**r**awbe**rr**y"
	if got := resp.Output[0].Blocks[0].Text; got != want {
		t.Errorf("merged text %q, want %q", got, want)
	}
	if u := resp.Usage; u == nil || *u != (traffic.Usage{InputTokens: 9, OutputTokens: 23, ReasoningTokens: 302}) {
		t.Errorf("usage %+v", resp.Usage)
	}
	if resp.ID != "M3iLaY-AI7zTxN8P3Piw4Qg" || resp.Model != "gemini-3-pro-preview" {
		t.Errorf("id %q model %q", resp.ID, resp.Model)
	}
}

// TestCorpusURLSafeEcho: pydantic-ai echoes the signature re-encoded in the
// URL-safe alphabet, both after a stream and after a JSON response. The raw
// tokens differ, the bytes they stand for do not.
func TestCorpusURLSafeEcho(t *testing.T) {
	calls := corpusCalls(t)
	cases := []struct {
		file          string
		resp, req     int // interaction indexes
		content, part int // where the echo sits in the request
	}{
		{"test_google_streaming_tool_call_thought_signature", 0, 1, 1, 0},
		{"test_google_model_retry", 0, 1, 1, 0},
		{"test_google_model_retry", 1, 2, 3, 0},
	}
	for _, tc := range cases {
		resp := mustResponse(t, find(t, calls, tc.file, tc.resp))
		req := mustRequest(t, find(t, calls, tc.file, tc.req))
		got := resp.Output[0].Blocks[0]
		echo := req.Messages[tc.content].Blocks[tc.part]
		if got.Type != traffic.BlockToolCall || echo.Type != traffic.BlockToolCall || got.Name != echo.Name {
			t.Fatalf("%s: expected a functionCall echo, got %+v / %+v", tc.file, got, echo)
		}
		if bytes.Equal(got.Signature, echo.Signature) {
			t.Errorf("%s: expected the echo re-encoded, found the same token", tc.file)
		}
		if !bytes.Equal(sigBytes(t, got.Signature), sigBytes(t, echo.Signature)) {
			t.Errorf("%s: echoed signature stands for different bytes", tc.file)
		}
		if !bytes.ContainsAny(echo.Signature, "-_") {
			t.Errorf("%s: echo is not in the URL-safe alphabet", tc.file)
		}
	}
}

// TestCorpusStreamedToolCall: the functionCall chunk carries the signature;
// the closing chunk is an unsigned empty text part, kept as its own block.
func TestCorpusStreamedToolCall(t *testing.T) {
	resp := mustResponse(t, find(t, corpusCalls(t), "test_google_streaming_tool_call_thought_signature", 0))
	bs := resp.Output[0].Blocks
	if len(bs) != 2 || bs[0].Type != traffic.BlockToolCall || bs[0].Name != "get_country" ||
		string(bs[0].Input) != "{}" || len(bs[0].Signature) == 0 || bs[1].Type != traffic.BlockText || bs[1].Text != "" {
		t.Fatalf("blocks: %+v", bs)
	}
	if !resp.Stream.Complete {
		t.Error("stream not complete")
	}
}

// TestCorpusDummySignature: a call imported from an OpenAI Responses turn
// carries the documented dummy signature, base64-encoded.
func TestCorpusDummySignature(t *testing.T) {
	req := mustRequest(t, find(t, corpusCalls(t), "test_thinking_with_tool_calls_from_other_model", 2))
	b := req.Messages[1].Blocks[0]
	if b.Type != traffic.BlockToolCall || b.ID != "call_1w9YRdMtRTRucwZShoZYlLJp" {
		t.Fatalf("block: %+v", b)
	}
	if got := string(sigBytes(t, b.Signature)); got != "context_engineering_is_the_way_to_go" {
		t.Errorf("signature decodes to %q", got)
	}
	if !strings.Contains(string(req.ToolChoice), `"mode":"ANY"`) {
		t.Errorf("tool choice %s", req.ToolChoice)
	}
	if r := req.Messages[2].Blocks[0]; r.Type != traffic.BlockToolResult || r.ToolCallID != b.ID || string(r.ResultRaw) != `{"return_value":"Mexico"}` {
		t.Errorf("function response: %+v", r)
	}
}

// TestCorpusCagentToolCall: the tool turn of cagent, whose functionResponse
// carries the call id where the function name belongs.
func TestCorpusCagentToolCall(t *testing.T) {
	calls := corpusCalls(t)
	req0 := mustRequest(t, find(t, calls, "TestExec_Gemini_ToolCall", 0))
	if req0.Thinking == nil || req0.Thinking.Type != "disabled" || req0.Thinking.BudgetTokens != 0 || req0.MaxTokens != 65536 {
		t.Errorf("thinking %+v max %d", req0.Thinking, req0.MaxTokens)
	}
	if len(req0.Tools) != 9 || req0.Tools[2].Name != "list_directory" || len(req0.Tools[2].Schema) == 0 {
		t.Errorf("tools: %d", len(req0.Tools))
	}
	resp0 := mustResponse(t, find(t, calls, "TestExec_Gemini_ToolCall", 0))
	if in := string(resp0.Output[0].Blocks[0].Input); in != `{"path": "testdata/working_dir"}` {
		t.Errorf("args not kept verbatim: %s", in)
	}
	req1 := mustRequest(t, find(t, calls, "TestExec_Gemini_ToolCall", 1))
	r := req1.Messages[4].Blocks[0]
	if r.Type != traffic.BlockToolResult || r.Name != "call_1338bc52-c261-432d-b5e5-9dfb8f9c13bb" || r.ToolCallID != "" {
		t.Errorf("function response: %+v", r)
	}
}

// TestCorpusLangchaingo: int-encoded enums, a body "model", a JSON-array
// stream and a 403 error body.
func TestCorpusLangchaingo(t *testing.T) {
	calls := corpusCalls(t)
	in := find(t, calls, "TestGoogleAIToolCallResponse", 0)
	if req := mustRequest(t, in); req.Model != "gemini-2.0-flash" || req.MaxTokens != 2048 {
		t.Errorf("model %q max %d", req.Model, req.MaxTokens)
	}
	if resp := mustResponse(t, in); resp.StopReason != "STOP" || resp.Stream != nil {
		t.Errorf("finishReason 1 should read STOP in a JSON response: %q", resp.StopReason)
	}
	resp := mustResponse(t, find(t, calls, "TestGoogleAIToolCallResponse", 1))
	s := resp.Stream
	if s == nil || s.Events != 2 || !s.Complete || len(s.Issues) > 0 || resp.StopReason != "STOP" {
		t.Fatalf("array stream: %+v stop %q", s, resp.StopReason)
	}
	if got := resp.Output[0].Blocks; len(got) != 1 || got[0].Text != "15 * 7 is 105.\n" {
		t.Errorf("text: %+v", got)
	}
	if resp.Usage.InputTokens != 33 || resp.Usage.OutputTokens != 12 {
		t.Errorf("usage is the last chunk's: %+v", resp.Usage)
	}

	e := mustResponse(t, find(t, calls, "TestGoogleAIErrorHandling", 0)).Error
	if e == nil || e.Type != "PERMISSION_DENIED" || e.Code != "403" || !strings.HasPrefix(e.Message, "Method doesn't allow unregistered callers") {
		t.Errorf("error: %+v", e)
	}
}
