package responses

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gotest.tools/v3/golden"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// call is one Responses interaction of a corpus file.
type call struct {
	file  string // corpus name
	index int    // interaction index in the file
	in    *cassette.Interaction
}

// corpusCalls loads every corpus file and returns its Responses calls: those
// posted to /v1/responses, and response-only fixtures whose events are
// Responses events. Mixed files (Responses turns, then Gemini) contribute
// their Responses interactions only.
func corpusCalls(t testing.TB) []call {
	t.Helper()
	var calls []call
	for _, path := range corpus.Files(t) {
		c, err := cassette.Load(path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for i, in := range c.Interactions {
			url := strings.SplitN(in.Request.URL, "?", 2)[0]
			responseOnly := in.Request.Method == "" && bytes.Contains(in.Response.Body, []byte(`"type":"response.`))
			if strings.HasSuffix(url, "/v1/responses") || responseOnly {
				calls = append(calls, call{file: corpus.Name(t, path), index: i, in: in})
			}
		}
	}
	if len(calls) < 13 {
		t.Fatalf("found %d Responses calls in the corpus, want at least 13", len(calls))
	}
	return calls
}

// TestCorpusRequests round-trips every real request body: decode, encode,
// decode again must give the same model, the encoded body must be the same
// JSON value, and every opaque token must be the original's bytes.
func TestCorpusRequests(t *testing.T) {
	n := 0
	for _, c := range corpusCalls(t) {
		body := c.in.Request.Body
		if len(body) == 0 {
			continue
		}
		n++
		t.Run(fmt.Sprintf("%s#%d", c.file, c.index), func(t *testing.T) {
			first, second, encoded := roundTrip(t, body)
			if diff := cmp.Diff(first, second); diff != "" {
				t.Errorf("decode(encode(decode(b))) differs (-first +second):\n%s", diff)
			}
			if !rawjson.Equal(encoded, body) {
				t.Errorf("encoded body is not the same JSON value as the recorded one:\n got %s\nwant %s", encoded, body)
			}
			for _, tok := range opaqueTokens(first) {
				if !bytes.Contains(body, tok) || !bytes.Contains(encoded, tok) {
					t.Errorf("opaque token %.60s… is not byte-identical in the recorded and encoded bodies", tok)
				}
			}
		})
	}
	if n < 11 {
		t.Errorf("round-tripped %d request bodies, want at least 11", n)
	}
}

// opaqueTokens lists every raw token a request carries that must survive
// byte for byte.
func opaqueTokens(req *traffic.Request) []json.RawMessage {
	var toks []json.RawMessage
	for _, m := range req.Messages {
		for _, b := range m.Blocks {
			for _, tok := range []json.RawMessage{b.EncryptedContent, b.Input, b.ResultRaw, b.Raw, b.Source} {
				if len(tok) > 0 {
					toks = append(toks, tok)
				}
			}
		}
	}
	return toks
}

// TestCorpusResponses decodes every real response body and pins what was
// decoded in a golden summary per file (rewrite with -update).
func TestCorpusResponses(t *testing.T) {
	byFile := map[string][]call{}
	var order []string
	for _, c := range corpusCalls(t) {
		if byFile[c.file] == nil {
			order = append(order, c.file)
		}
		byFile[c.file] = append(byFile[c.file], c)
	}
	for _, file := range order {
		t.Run(file, func(t *testing.T) {
			var b strings.Builder
			for _, c := range byFile[file] {
				resp, err := Codec{}.DecodeResponse(c.in.Response.Status, c.in.Response.Header, c.in.Response.Body)
				if err != nil {
					t.Fatalf("interaction %d: %v", c.index, err)
				}
				var req *traffic.Request
				if len(c.in.Request.Body) > 0 {
					if req, err = (Codec{}).DecodeRequest(c.in.Request.Body); err != nil {
						t.Fatalf("interaction %d request: %v", c.index, err)
					}
				}
				summarize(&b, c, req, resp)
			}
			name := strings.NewReplacer("/", "__", "[", "_", "]", "_").Replace(file) + ".golden"
			golden.Assert(t, b.String(), filepath.Join("corpus", name))
		})
	}
}

func summarize(b *strings.Builder, c call, req *traffic.Request, resp *traffic.Response) {
	fmt.Fprintf(b, "interaction %d -> %d\n", c.index, c.in.Response.Status)
	if req != nil {
		th := "-"
		if req.Thinking != nil {
			th = req.Thinking.Type
		}
		fmt.Fprintf(b, "  request model=%s stream=%t instructions=%t tools=%d thinking=%s include=%v\n",
			req.Model, req.Stream, req.SystemString, len(req.Tools), th, req.Include)
		for _, m := range req.Messages {
			fmt.Fprintf(b, "    %s\n", messageLine(m))
		}
	}
	fmt.Fprintf(b, "  response id=%s status=%s stop=%s\n", resp.ID, resp.Status, resp.StopReason)
	if u := resp.Usage; u != nil {
		fmt.Fprintf(b, "  usage in=%d out=%d cached=%d reasoning=%d\n", u.InputTokens, u.OutputTokens, u.CacheReadTokens, u.ReasoningTokens)
	}
	for _, m := range resp.Output {
		fmt.Fprintf(b, "    %s\n", messageLine(m))
	}
	if e := resp.Error; e != nil {
		fmt.Fprintf(b, "  error type=%s code=%s param=%s: %s\n", e.Type, e.Code, e.Param, e.Message)
	}
	if st := resp.Stream; st != nil {
		fmt.Fprintf(b, "  stream events=%d complete=%t truncated=%t partial=%v error=%t\n", st.Events, st.Complete, st.Truncated, st.Partial, st.Error != nil)
		for _, is := range st.Issues {
			fmt.Fprintf(b, "    issue %s event %d: %s\n", is.Check, is.Event, is.Message)
		}
	}
}

// messageLine renders one message: its path, role, item kind, id and blocks.
func messageLine(m traffic.Message) string {
	parts := []string{m.Path, string(m.Role), orDefault(m.WireType, "(easy)"), orDefault(ItemID(m), "-")}
	for _, bl := range m.Blocks {
		s := string(bl.Type)
		switch bl.Type {
		case traffic.BlockText:
			s += fmt.Sprintf("(%d chars)", len(bl.Text))
		case traffic.BlockReasoning:
			s += fmt.Sprintf("(summary %d parts, %d chars, encrypted %d bytes)", len(bl.Content), len(bl.Text), len(bl.EncryptedContent))
		case traffic.BlockToolCall:
			s += fmt.Sprintf("(%s %s %s)", bl.ID, bl.Name, bl.Input)
		case traffic.BlockToolResult:
			s += fmt.Sprintf("(%s %.40s)", bl.ToolCallID, bl.ResultRaw)
		case traffic.BlockOther:
			s += "(" + bl.WireType + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// TestCorpusFacts asserts what the real traffic is known to contain.
func TestCorpusFacts(t *testing.T) {
	calls := map[string]*cassette.Interaction{}
	for _, c := range corpusCalls(t) {
		calls[fmt.Sprintf("%s#%d", c.file, c.index)] = c.in
	}
	get := func(key string) *cassette.Interaction {
		t.Helper()
		in := calls[key]
		if in == nil {
			t.Fatalf("no corpus call %s", key)
		}
		return in
	}
	decode := func(in *cassette.Interaction) *traffic.Response {
		t.Helper()
		r, err := Codec{}.DecodeResponse(in.Response.Status, in.Response.Header, in.Response.Body)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}

	t.Run("400 for a reasoning item without its follower", func(t *testing.T) {
		r := decode(get("pydantic__pydantic-ai/tests__models__cassettes__test_openai_responses__test_openai_responses_thinking_with_modified_history.yaml#1"))
		want := &traffic.APIError{
			Type:    "invalid_request_error",
			Param:   "input",
			Message: "Item 'rs_68c42de022c881948db7ed1cc2529f2e0202c9ad459e0d23' of type 'reasoning' was provided without its required following item.",
		}
		if diff := cmp.Diff(want, r.Error); diff != "" {
			t.Errorf("error (-want +got):\n%s", diff)
		}
	})

	t.Run("streamed encrypted_content is echoed from output_item.done", func(t *testing.T) {
		const file = "pydantic__pydantic-ai/tests__models__cassettes__test_openai_responses__test_openai_responses_phase_streamed_on_part_start.yaml"
		r := decode(get(file + "#0"))
		req, err := Codec{}.DecodeRequest(get(file + "#1").Request.Body)
		if err != nil {
			t.Fatal(err)
		}
		produced, echoed := r.Output[0].Blocks[0], req.Messages[1].Blocks[0]
		if produced.Type != traffic.BlockReasoning || echoed.Type != traffic.BlockReasoning || produced.ItemID != echoed.ItemID {
			t.Fatalf("produced %+v, echoed %+v", produced, echoed)
		}
		if !bytes.Equal(produced.EncryptedContent, echoed.EncryptedContent) {
			t.Errorf("the echo carries the .done token byte for byte:\nproduced %.80s\necho     %.80s", produced.EncryptedContent, echoed.EncryptedContent)
		}
		body := get(file + "#0").Response.Body
		if n := bytes.Count(body, []byte(`"encrypted_content":"gAAAA`)); n != 3 {
			t.Errorf("the stream carries %d encrypted_content tokens for one item, want 3 (added, done, completed)", n)
		}
		if len(r.Stream.Issues) != 0 {
			t.Errorf("issues: %s", issueList(r.Stream.Issues))
		}
	})

	t.Run("error event then response.failed in an HTTP 200", func(t *testing.T) {
		r := decode(get("vercel__ai/packages__openai__src__responses____fixtures____openai-error.1.chunks.txt#0"))
		st := r.Stream
		if st.Error == nil || st.Error.Code != "insufficient_quota" || r.Error != st.Error || r.Status != "failed" {
			t.Errorf("error %+v, response error %+v, status %q", st.Error, r.Error, r.Status)
		}
		if st.Complete || st.Truncated || len(st.Issues) != 0 {
			t.Errorf("stream facts: %+v", st)
		}
	})

	t.Run("a fixture that splices four streams", func(t *testing.T) {
		// The cassette reader splits back-to-back streams into one
		// interaction each; every one is a complete, clean stream.
		for i := range 4 {
			r := decode(get(fmt.Sprintf("vercel__ai/packages__openai__src__responses____fixtures____openai-reasoning-encrypted-content.1.chunks.txt#%d", i)))
			if st := r.Stream; !st.Complete || len(st.Issues) != 0 {
				t.Errorf("stream %d: complete %t issues:\n%s", i, st.Complete, issueList(st.Issues))
			}
		}
	})
}

// splitStreams cuts a body of back-to-back streams before each
// response.created event (the SDK can read only one stream per body).
func splitStreams(body []byte) [][]byte {
	var out [][]byte
	evs := sseEvents(body)
	start := 0
	for i, e := range evs {
		if i > 0 && strings.Contains(e.data, `"type":"response.created"`) {
			out = append(out, body[start:e.offset])
			start = e.offset
		}
	}
	return append(out, body[start:])
}
