package gemini_test

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	gemchecks "github.com/llmtck/llmtck/conformance/checks/gemini"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/conformance/checks/checktest"
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

// TestFixturesUpToDate regenerates the family's fixtures; -update rewrites them.
func TestFixturesUpToDate(t *testing.T) {
	checktest.FixturesUpToDate(t, gemchecks.Checks(), fixtures)
}

var fixtures = []checktest.Fixture{
	checktest.Fixture{Check: "GEM-SIG-001", Name: "real-signature-beside-call", Pass: true, Source: srcGemSigStream},
	checktest.Fixture{Check: "GEM-SIG-001", Name: "signature-nested-in-function-call", Interaction: 1, Source: srcGemSigStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			moveJSON(t, c, 1, "contents.1.parts.0.thoughtSignature", "contents.1.parts.0.functionCall.thoughtSignature")
		}},

	checktest.Fixture{Check: "GEM-SIG-002", Name: "real-signature-echoed", Pass: true, Source: srcGemSigStream},
	checktest.Fixture{Check: "GEM-SIG-002", Name: "real-dummy-on-imported-call", Pass: true, Source: srcGemOtherModel},
	checktest.Fixture{Check: "GEM-SIG-002", Name: "real-unsigned-older-model", Pass: true, Source: srcGemCagentTool},
	checktest.Fixture{Check: "GEM-SIG-002", Name: "first-call-signature-dropped", Interaction: 1, Source: srcGemSigStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.DeleteJSON(t, c, 1, "contents.1.parts.0.thoughtSignature")
		}},
	checktest.Fixture{Check: "GEM-SIG-002", Name: "imported-call-without-dummy", Interaction: 2, Source: srcGemOtherModel,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.DeleteJSON(t, c, 2, "contents.1.parts.0.thoughtSignature")
		}},

	checktest.Fixture{Check: "GEM-SIG-003", Name: "real-url-safe-echo", Pass: true, Source: srcGemSigStream},
	checktest.Fixture{Check: "GEM-SIG-003", Name: "real-sequential-steps", Pass: true, Source: srcGemRetry},
	checktest.Fixture{Check: "GEM-SIG-003", Name: "real-dummy-on-imported-call", Pass: true, Source: srcGemOtherModel},
	checktest.Fixture{Check: "GEM-SIG-003", Name: "one-signature-byte-flipped", Interaction: 1, Source: srcGemSigStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			flipSignature(t, c, 1, "contents.1.parts.0.thoughtSignature")
		}},
	checktest.Fixture{Check: "GEM-SIG-003", Name: "signature-moved-to-function-response", Interaction: 1, Source: srcGemSigStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			moveJSON(t, c, 1, "contents.1.parts.0.thoughtSignature", "contents.2.parts.0.thoughtSignature")
		}},

	// No recording echoes a signature-only part: the second turn is
	// hand-built on top of the real stream that ends in one.
	checktest.Fixture{Check: "GEM-SIG-004", Name: "handbuilt-signature-only-part-kept", Pass: true,
		Build: func(t *testing.T) *cassette.Cassette { return titleEcho(t, false) }},
	checktest.Fixture{Check: "GEM-SIG-004", Name: "handbuilt-signature-only-part-merged", Interaction: 1,
		Build: func(t *testing.T) *cassette.Cassette { return titleEcho(t, true) }},
	// @google/genai's streamed Chat keeps each chunk as a model content of
	// its own: the text, then the signature-only part, in a row.
	checktest.Fixture{Check: "GEM-SIG-004", Name: "handbuilt-stream-chunks-as-contents", Pass: true,
		Build: func(t *testing.T) *cassette.Cassette { return titleEchoSplit(t) }},
	checktest.Fixture{Check: "GEM-SIG-003", Name: "handbuilt-stream-chunks-as-contents", Pass: true,
		Build: func(t *testing.T) *cassette.Cassette { return titleEchoSplit(t) }},

	checktest.Fixture{Check: "GEM-SIG-005", Name: "real-dummy-on-imported-call", Pass: true, Source: srcGemOtherModel},
	checktest.Fixture{Check: "GEM-SIG-005", Name: "dummy-replaces-real-signature", Interaction: 1, Source: srcGemSigStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.SetJSON(t, c, 1, "contents.1.parts.0.thoughtSignature", `"skip_thought_signature_validator"`)
		}},

	// No recording echoes a signed text answer: the fourth turn is
	// hand-built on top of the real answer "Paris" and its signature.
	checktest.Fixture{Check: "GEM-SIG-006", Name: "handbuilt-text-signature-echoed", Pass: true,
		Build: func(t *testing.T) *cassette.Cassette { return retryTextEcho(t, true) }},
	checktest.Fixture{Check: "GEM-SIG-006", Name: "handbuilt-text-signature-dropped", Interaction: 3,
		Build: func(t *testing.T) *cassette.Cassette { return retryTextEcho(t, false) }},

	checktest.Fixture{Check: "GEM-TOOL-001", Name: "real-call-then-response", Pass: true, Source: srcGemCagentTool},
	checktest.Fixture{Check: "GEM-TOOL-001", Name: "real-sequential-steps", Pass: true, Source: srcGemRetry},
	// crewAI answers a parallel call with one content per response; 200.
	checktest.Fixture{Check: "GEM-TOOL-001", Name: "real-responses-one-content-each", Pass: true, Source: srcGemCrewParallel},
	checktest.Fixture{Check: "GEM-TOOL-002", Name: "real-responses-one-content-each", Pass: true, Source: srcGemCrewParallel},
	checktest.Fixture{Check: "GEM-TOOL-001", Name: "history-opens-with-call", Interaction: 1, Source: srcGemLangchain,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.DeleteJSON(t, c, 1, "contents.0") }},
	checktest.Fixture{Check: "GEM-TOOL-001", Name: "call-turn-dropped", Interaction: 1, Source: srcGemSigStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.DeleteJSON(t, c, 1, "contents.1") }},

	checktest.Fixture{Check: "GEM-TOOL-002", Name: "real-sequential-steps", Pass: true, Source: srcGemRetry},
	checktest.Fixture{Check: "GEM-TOOL-002", Name: "function-response-dropped", Interaction: 2, Source: srcGemRetry,
		Mutate: func(t *testing.T, c *cassette.Cassette) { checktest.DeleteJSON(t, c, 2, "contents.4.parts.0") }},
	// The same fault in a request whose systemInstruction.parts is one
	// object (Gemini answers 200 to that form): the request decodes, so
	// the check still runs.
	checktest.Fixture{Check: "GEM-TOOL-002", Name: "function-response-dropped-system-parts-one-object", Interaction: 2, Source: srcGemRetry,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.DeleteJSON(t, c, 2, "contents.4.parts.0")
			checktest.SetJSON(t, c, 2, "systemInstruction.parts", `{"text":"You are a helpful chatbot."}`)
		}},
	// cagent names its responses after the call id; Gemini 2.5
	// accepts it, so this real traffic raises an info finding.
	checktest.Fixture{Check: "GEM-TOOL-002", Name: "real-response-named-by-call-id", Interaction: 1, Source: srcGemCagentTool},

	checktest.Fixture{Check: "GEM-CANCEL-001", Name: "real-error-response", Pass: true, Source: srcGemRetry},
	checktest.Fixture{Check: "GEM-CANCEL-001", Name: "cancellation-as-result", Interaction: 1, Source: srcGemCagentTool,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.ReplaceOnce(t, c, 1, "request", `"response":{"result":"FILE README.me\n"}`,
				`"response":{"result":"[Operation Cancelled] Reason: User cancelled the operation."}`)
		}},
	checktest.Fixture{Check: "GEM-CANCEL-001", Name: "cut-stream-echoed", Interaction: 1, Source: srcGemSigStream,
		Mutate: func(t *testing.T, c *cassette.Cassette) {
			checktest.TruncateAt(t, c, 0, `data: {"candidates": [{"content": {"parts": [{"text": ""}]`)
		}},
}

// moveJSON moves the value at path from to path to in interaction i's
// request body: one change, the signature put somewhere else.
func moveJSON(t *testing.T, c *cassette.Cassette, i int, from, to string) {
	t.Helper()
	v := gjson.GetBytes(*checktest.Body(t, c, i, "request"), from)
	if !v.Exists() {
		t.Fatalf("interaction %d: nothing at %s", i, from)
	}
	checktest.DeleteJSON(t, c, i, from)
	checktest.SetJSON(t, c, i, to, v.Raw)
}

// flipSignature changes one base64 character in the middle of the
// signature at path, so it still decodes, to different bytes.
func flipSignature(t *testing.T, c *cassette.Cassette, i int, path string) {
	t.Helper()
	sig := []byte(gjson.GetBytes(*checktest.Body(t, c, i, "request"), path).String())
	if len(sig) < 8 {
		t.Fatalf("interaction %d: no signature at %s", i, path)
	}
	at := len(sig) / 2
	if sig[at] == 'A' {
		sig[at] = 'B'
	} else {
		sig[at] = 'A'
	}
	checktest.SetJSON(t, c, i, path, string(rawjson.Quote(string(sig))))
}

// load loads a corpus recording.
func load(t *testing.T, src string) *cassette.Cassette {
	t.Helper()
	c, err := cassette.Load(filepath.Join(corpus.Dir(t), filepath.FromSlash(src)))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// appendTurn adds a hand-built interaction after the last one: the last
// request's contents plus the given contents, sent to the same URL, and a
// short hand-built answer.
func appendTurn(t *testing.T, c *cassette.Cassette, contents ...string) {
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

// recordedSignature returns the signature of block k of the first
// candidate of interaction i's recorded response.
func recordedSignature(t *testing.T, c *cassette.Cassette, i, k int) string {
	t.Helper()
	in := c.Interactions[i]
	resp, err := gemini.Codec{}.DecodeResponse(in.Response.Status, in.Response.Header, in.Response.Body)
	if err != nil || len(resp.Output) == 0 || len(resp.Output[0].Blocks) <= k || resp.Output[0].Blocks[k].Signature == nil {
		t.Fatalf("interaction %d: no signature on response block %d (%v)", i, k, err)
	}
	return string(resp.Output[0].Blocks[k].Signature)
}

// titleEcho continues cagent's title conversation: the model's answer
// echoed with its trailing signature-only part kept as its own part, or
// merged into the text part before it.
func titleEcho(t *testing.T, merged bool) *cassette.Cassette {
	t.Helper()
	c := load(t, srcGemTitle)
	sig := recordedSignature(t, c, 0, 1)
	model := `{"parts":[{"text":"AI Capabilities Inquiry"},{"text":"","thoughtSignature":` + sig + `}],"role":"model"}`
	if merged {
		model = `{"parts":[{"text":"AI Capabilities Inquiry","thoughtSignature":` + sig + `}],"role":"model"}`
	}
	appendTurn(t, c, model, `{"parts":[{"text":"Make it shorter."}],"role":"user"}`)
	return c
}

// retryTextEcho continues pydantic-ai's retry conversation: the signed
// answer "Paris" echoed with or without its signature.
func retryTextEcho(t *testing.T, signed bool) *cassette.Cassette {
	t.Helper()
	c := load(t, srcGemRetry)
	part := `{"text":"Paris"}`
	if signed {
		part = `{"text":"Paris","thoughtSignature":` + recordedSignature(t, c, 2, 0) + `}`
	}
	appendTurn(t, c, `{"parts":[`+part+`],"role":"model"}`, `{"parts":[{"text":"And the capital of Italy?"}],"role":"user"}`)
	return c
}

// titleEchoSplit continues cagent's title stream as @google/genai's Chat
// keeps it: one model content per chunk.
func titleEchoSplit(t *testing.T) *cassette.Cassette {
	t.Helper()
	c := load(t, srcGemTitle)
	sig := recordedSignature(t, c, 0, 1)
	appendTurn(t, c, `{"parts":[{"text":"AI Capabilities Inquiry"}],"role":"model"}`, `{"parts":[{"text":"","thoughtSignature":`+sig+`}],"role":"model"}`,
		`{"parts":[{"text":"Make it shorter."}],"role":"user"}`)
	return c
}
