package checks_test

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/llmtck/llmtck/internal/cassette"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/providers/gemini"
)

const (
	// Gemini 3, streamed: a functionCall with its signature, echoed in
	// URL-safe base64 with the functionResponse.
	srcGemSigStream = "pydantic__pydantic-ai/tests__models__cassettes__test_google__test_google_streaming_tool_call_thought_signature.yaml"
	// Gemini 2.5 Pro: two signed calls in sequence, then a signed text answer.
	srcGemRetry = "pydantic__pydantic-ai/tests__models__cassettes__test_google__test_google_model_retry.yaml"
	// OpenAI Responses history continued on Gemini 3 with a dummy signature.
	srcGemOtherModel = "pydantic__pydantic-ai/tests__models__cassettes__test_google__test_thinking_with_tool_calls_from_other_model.yaml"
	// Gemini 2.5 Flash, streamed, no signatures; responses named by call id.
	srcGemCagentTool = "docker__cagent/e2e__testdata__cassettes__TestExec_Gemini_ToolCall.yaml"
	// Gemini 3 stream ending in a signature-only part; one interaction.
	srcGemTitle = "docker__cagent/e2e__testdata__cassettes__TestDebug_Title__Google_Gemini3ProPreview.yaml"
	// Gemini 2.0 Flash through genai-go: call and response, no signatures.
	srcGemLangchain = "tmc__langchaingo/llms__googleai__testdata__TestGoogleAIToolCallResponse.httprr"
)

const srcGemCrewParallel = "wave2/crewAIInc__crewAI/lib__crewai__tests__cassettes__agents__TestGeminiNativeToolCalling.test_gemini_parallel_native_tool_calling_test_agent_kickoff.yaml"

var geminiFixtures = []fixtureSpec{
	fixtureSpec{Check: "GEM-SIG-001", Name: "real-signature-beside-call", Pass: true, Source: srcGemSigStream},
	fixtureSpec{Check: "GEM-SIG-001", Name: "signature-nested-in-function-call", Interaction: 1, Source: srcGemSigStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			gemMoveJSON(t, c, 1, "contents.1.parts.0.thoughtSignature", "contents.1.parts.0.functionCall.thoughtSignature")
		}},

	fixtureSpec{Check: "GEM-SIG-002", Name: "real-signature-echoed", Pass: true, Source: srcGemSigStream},
	fixtureSpec{Check: "GEM-SIG-002", Name: "real-dummy-on-imported-call", Pass: true, Source: srcGemOtherModel},
	fixtureSpec{Check: "GEM-SIG-002", Name: "real-unsigned-older-model", Pass: true, Source: srcGemCagentTool},
	fixtureSpec{Check: "GEM-SIG-002", Name: "first-call-signature-dropped", Interaction: 1, Source: srcGemSigStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) { deleteJSON(t, c, 1, "contents.1.parts.0.thoughtSignature") }},
	fixtureSpec{Check: "GEM-SIG-002", Name: "imported-call-without-dummy", Interaction: 2, Source: srcGemOtherModel,
		Mutate: func(t *testing.T, c *cassette.Cassette) { deleteJSON(t, c, 2, "contents.1.parts.0.thoughtSignature") }},

	fixtureSpec{Check: "GEM-SIG-003", Name: "real-url-safe-echo", Pass: true, Source: srcGemSigStream},
	fixtureSpec{Check: "GEM-SIG-003", Name: "real-sequential-steps", Pass: true, Source: srcGemRetry},
	fixtureSpec{Check: "GEM-SIG-003", Name: "real-dummy-on-imported-call", Pass: true, Source: srcGemOtherModel},
	fixtureSpec{Check: "GEM-SIG-003", Name: "one-signature-byte-flipped", Interaction: 1, Source: srcGemSigStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			gemFlipSignature(t, c, 1, "contents.1.parts.0.thoughtSignature")
		}},
	fixtureSpec{Check: "GEM-SIG-003", Name: "signature-moved-to-function-response", Interaction: 1, Source: srcGemSigStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			gemMoveJSON(t, c, 1, "contents.1.parts.0.thoughtSignature", "contents.2.parts.0.thoughtSignature")
		}},

	// No recording echoes a signature-only part: the second turn is
	// hand-built on top of the real stream that ends in one.
	fixtureSpec{Check: "GEM-SIG-004", Name: "handbuilt-signature-only-part-kept", Pass: true,
		Build: func(t *testing.T) *cassette.Cassette { return gemTitleEcho(t, false) }},
	fixtureSpec{Check: "GEM-SIG-004", Name: "handbuilt-signature-only-part-merged", Interaction: 1,
		Build: func(t *testing.T) *cassette.Cassette { return gemTitleEcho(t, true) }},

	fixtureSpec{Check: "GEM-SIG-005", Name: "real-dummy-on-imported-call", Pass: true, Source: srcGemOtherModel},
	fixtureSpec{Check: "GEM-SIG-005", Name: "dummy-replaces-real-signature", Interaction: 1, Source: srcGemSigStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			setJSON(t, c, 1, "contents.1.parts.0.thoughtSignature", `"skip_thought_signature_validator"`)
		}},

	// No recording echoes a signed text answer: the fourth turn is
	// hand-built on top of the real answer "Paris" and its signature.
	fixtureSpec{Check: "GEM-SIG-006", Name: "handbuilt-text-signature-echoed", Pass: true,
		Build: func(t *testing.T) *cassette.Cassette { return gemRetryTextEcho(t, true) }},
	fixtureSpec{Check: "GEM-SIG-006", Name: "handbuilt-text-signature-dropped", Interaction: 3,
		Build: func(t *testing.T) *cassette.Cassette { return gemRetryTextEcho(t, false) }},

	fixtureSpec{Check: "GEM-TOOL-001", Name: "real-call-then-response", Pass: true, Source: srcGemCagentTool},
	fixtureSpec{Check: "GEM-TOOL-001", Name: "real-sequential-steps", Pass: true, Source: srcGemRetry},
	// crewAI answers a parallel call with one content per response; 200.
	fixtureSpec{Check: "GEM-TOOL-001", Name: "real-responses-one-content-each", Pass: true, Source: srcGemCrewParallel},
	fixtureSpec{Check: "GEM-TOOL-002", Name: "real-responses-one-content-each", Pass: true, Source: srcGemCrewParallel},
	fixtureSpec{Check: "GEM-TOOL-001", Name: "history-opens-with-call", Interaction: 1, Source: srcGemLangchain,
		Mutate: func(t *testing.T, c *cassette.Cassette) { deleteJSON(t, c, 1, "contents.0") }},
	fixtureSpec{Check: "GEM-TOOL-001", Name: "call-turn-dropped", Interaction: 1, Source: srcGemSigStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) { deleteJSON(t, c, 1, "contents.1") }},

	fixtureSpec{Check: "GEM-TOOL-002", Name: "real-sequential-steps", Pass: true, Source: srcGemRetry},
	fixtureSpec{Check: "GEM-TOOL-002", Name: "function-response-dropped", Interaction: 2, Source: srcGemRetry,
		Mutate: func(t *testing.T, c *cassette.Cassette) { deleteJSON(t, c, 2, "contents.4.parts.0") }},
	// The same fault in a request whose systemInstruction.parts is one
	// object (Gemini answers 200 to that form): the request decodes, so
	// the check still runs.
	fixtureSpec{Check: "GEM-TOOL-002", Name: "function-response-dropped-system-parts-one-object", Interaction: 2, Source: srcGemRetry,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			deleteJSON(t, c, 2, "contents.4.parts.0")
			setJSON(t, c, 2, "systemInstruction.parts", `{"text":"You are a helpful chatbot."}`)
		}},
	// cagent names its responses after the call id; Gemini 2.5
	// accepts it, so this real traffic raises an info finding.
	fixtureSpec{Check: "GEM-TOOL-002", Name: "real-response-named-by-call-id", Interaction: 1, Source: srcGemCagentTool},

	fixtureSpec{Check: "GEM-CANCEL-001", Name: "real-error-response", Pass: true, Source: srcGemRetry},
	fixtureSpec{Check: "GEM-CANCEL-001", Name: "cancellation-as-result", Interaction: 1, Source: srcGemCagentTool,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			replaceOnce(t, c, 1, "request", `"response":{"result":"FILE README.me\n"}`,
				`"response":{"result":"[Operation Cancelled] Reason: User cancelled the operation."}`)
		}},
	fixtureSpec{Check: "GEM-CANCEL-001", Name: "cut-stream-echoed", Interaction: 1, Source: srcGemSigStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			truncateAt(t, c, 0, `data: {"candidates": [{"content": {"parts": [{"text": ""}]`)
		}},
}

// gemMoveJSON moves the value at path from to path to in interaction i's
// request body: one change, the signature put somewhere else.
func gemMoveJSON(t *testing.T, c *cassette.Cassette, i int, from, to string) {
	t.Helper()
	v := gjson.GetBytes(*bodyOf(t, c, i, "request"), from)
	if !v.Exists() {
		t.Fatalf("interaction %d: nothing at %s", i, from)
	}
	deleteJSON(t, c, i, from)
	setJSON(t, c, i, to, v.Raw)
}

// gemFlipSignature changes one base64 character in the middle of the
// signature at path, so it still decodes, to different bytes.
func gemFlipSignature(t *testing.T, c *cassette.Cassette, i int, path string) {
	t.Helper()
	sig := []byte(gjson.GetBytes(*bodyOf(t, c, i, "request"), path).String())
	if len(sig) < 8 {
		t.Fatalf("interaction %d: no signature at %s", i, path)
	}
	at := len(sig) / 2
	if sig[at] == 'A' {
		sig[at] = 'B'
	} else {
		sig[at] = 'A'
	}
	setJSON(t, c, i, path, string(rawjson.Quote(string(sig))))
}

// gemLoad loads a corpus recording.
func gemLoad(t *testing.T, src string) *cassette.Cassette {
	t.Helper()
	c, err := cassette.Load(filepath.Join(corpus.Dir(t), filepath.FromSlash(src)))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// gemAppendTurn adds a hand-built interaction after the last one: the last
// request's contents plus the given contents, sent to the same URL, and a
// short hand-built answer.
func gemAppendTurn(t *testing.T, c *cassette.Cassette, contents ...string) {
	t.Helper()
	last := c.Interactions[len(c.Interactions)-1]
	body := append([]byte(nil), last.Request.Body...)
	for _, content := range contents {
		var err error
		if body, err = sjson.SetRawBytes(body, "contents.-1", []byte(content)); err != nil {
			t.Fatal(err)
		}
	}
	if !json.Valid(body) {
		t.Fatalf("hand-built body is not JSON: %s", body)
	}
	answer := `{"candidates": [{"content": {"parts": [{"text": "Done."}],"role": "model"},"finishReason": "STOP","index": 0}]}`
	c.Interactions = append(c.Interactions, &cassette.Interaction{
		Request: cassette.Request{Method: last.Request.Method, URL: strings.Replace(last.Request.URL, ":streamGenerateContent?alt=sse", ":generateContent", 1),
			Header: last.Request.Header.Clone(), Body: body},
		Response: cassette.Response{Status: 200, StatusText: "200 OK",
			Header: http.Header{"Content-Type": {"application/json; charset=UTF-8"}}, Body: []byte(answer)},
	})
}

// gemRecordedSignature returns the signature of block k of the first
// candidate of interaction i's recorded response.
func gemRecordedSignature(t *testing.T, c *cassette.Cassette, i, k int) string {
	t.Helper()
	in := c.Interactions[i]
	resp, err := gemini.Codec{}.DecodeResponse(in.Response.Status, in.Response.Header, in.Response.Body)
	if err != nil || len(resp.Output) == 0 || len(resp.Output[0].Blocks) <= k || resp.Output[0].Blocks[k].Signature == nil {
		t.Fatalf("interaction %d: no signature on response block %d (%v)", i, k, err)
	}
	return string(resp.Output[0].Blocks[k].Signature)
}

// gemTitleEcho continues cagent's title conversation: the model's answer
// echoed with its trailing signature-only part kept as its own part, or
// merged into the text part before it.
func gemTitleEcho(t *testing.T, merged bool) *cassette.Cassette {
	t.Helper()
	c := gemLoad(t, srcGemTitle)
	sig := gemRecordedSignature(t, c, 0, 1)
	model := `{"parts":[{"text":"AI Capabilities Inquiry"},{"text":"","thoughtSignature":` + sig + `}],"role":"model"}`
	if merged {
		model = `{"parts":[{"text":"AI Capabilities Inquiry","thoughtSignature":` + sig + `}],"role":"model"}`
	}
	gemAppendTurn(t, c, model, `{"parts":[{"text":"Make it shorter."}],"role":"user"}`)
	return c
}

// gemRetryTextEcho continues pydantic-ai's retry conversation: the signed
// answer "Paris" echoed with or without its signature.
func gemRetryTextEcho(t *testing.T, signed bool) *cassette.Cassette {
	t.Helper()
	c := gemLoad(t, srcGemRetry)
	part := `{"text":"Paris"}`
	if signed {
		part = `{"text":"Paris","thoughtSignature":` + gemRecordedSignature(t, c, 2, 0) + `}`
	}
	gemAppendTurn(t, c, `{"parts":[`+part+`],"role":"model"}`, `{"parts":[{"text":"And the capital of Italy?"}],"role":"user"}`)
	return c
}
