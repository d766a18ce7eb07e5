package anthropic

import (
	"net/http"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/traffic"
)

func TestDecodeResponseMessage(t *testing.T) {
	body := `{"id":"msg_01","type":"message","role":"assistant","model":"claude-x",
	 "content":[{"type":"thinking","thinking":"Hmm.","signature":"EqQB\/+=="},
	            {"type":"text","text":"a <b>","citations":[{"type":"char_location","cited_text":"b"}]},
	            {"type":"tool_use","id":"toolu_01","name":"f","input":{"z":1,"a":[1.0]}},
	            {"type":"text","text":5},
	            {"type":"container_upload","file_id":"file_1"}],
	 "stop_reason":"tool_use","stop_sequence":null,
	 "usage":{"input_tokens":395,"output_tokens":67,"cache_read_input_tokens":7,"cache_creation_input_tokens":3,"output_tokens_details":{"thinking_tokens":40}}}`
	resp, err := Codec{}.DecodeResponse(200, http.Header{"Content-Type": {"application/json"}}, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "id", resp.ID, "msg_01")
	eq(t, "stop", resp.StopReason, "tool_use")
	eq(t, "usage", *resp.Usage, traffic.Usage{InputTokens: 395, OutputTokens: 67, CacheReadTokens: 7, CacheCreationTokens: 3, ReasoningTokens: 40})
	eq(t, "stream", resp.Stream == nil, true)
	b := blocks(t, resp, 5)
	eq(t, "types", blockTypes(b), []string{"thinking/thinking", "text/text", "tool_call/tool_use", "other/text", "other/container_upload"})
	eq(t, "signature", string(b[0].Signature), `"EqQB\/+=="`)
	eq(t, "citations", string(b[1].Extra["citations"]), `[{"type":"char_location","cited_text":"b"}]`)
	eq(t, "input", string(b[2].Input), `{"z":1,"a":[1.0]}`)
	eq(t, "malformed block kept whole", string(b[3].Raw), `{"type":"text","text":5}`)
	eq(t, "paths", b[4].Path, "content[4]")
	eq(t, "role", resp.Output[0].Role, traffic.RoleAssistant)
}

func TestDecodeResponseErrors(t *testing.T) {
	cases := []struct {
		name   string
		status int
		body   string
		want   traffic.APIError
	}{
		{"anthropic 400", 400, `{"type":"error","error":{"type":"invalid_request_error","message":"messages.1.content.0: Invalid ` + "`signature`" + ` in ` + "`thinking`" + ` block"},"request_id":"req_011"}`,
			traffic.APIError{Type: "invalid_request_error", Message: "messages.1.content.0: Invalid `signature` in `thinking` block"}},
		{"overloaded 529", 529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
			traffic.APIError{Type: "overloaded_error", Message: "Overloaded"}},
		{"error type in a 200", 200, `{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`,
			traffic.APIError{Type: "api_error", Message: "Internal server error"}},
		{"vertex", 429, `{"error":{"code":429,"message":"Resource exhausted","status":"RESOURCE_EXHAUSTED"}}`,
			traffic.APIError{Type: "RESOURCE_EXHAUSTED", Code: "429", Message: "Resource exhausted"}},
		{"bedrock", 403, `{"message":"The security token included in the request is invalid."}`,
			traffic.APIError{Message: "The security token included in the request is invalid."}},
		{"string error", 401, `{"error":"invalid x-api-key"}`, traffic.APIError{Message: "invalid x-api-key"}},
		{"json without message", 500, `{}`, traffic.APIError{Message: "HTTP 500 with no error message"}},
		{"gateway html", 502, "<html>\n<head><title>502 Bad Gateway</title></head></html>", traffic.APIError{Message: "HTTP 502: <html>"}},
		{"json array", 500, `["oops"]`, traffic.APIError{Message: `HTTP 500: ["oops"]`}},
		{"plain text", 500, "upstream connect error or disconnect/reset before headers", traffic.APIError{Message: "HTTP 500: upstream connect error or disconnect/reset before headers"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, err := Codec{}.DecodeResponse(c.status, nil, []byte(c.body))
			if err != nil {
				t.Fatal(err)
			}
			if resp.Error == nil {
				t.Fatal("no Error")
			}
			eq(t, "error", *resp.Error, c.want)
			eq(t, "output", resp.Output, []traffic.Message{})
		})
	}
}

// TestDecodeResponseUndecodable lists the bodies that decode to nothing at
// all: the only ones that return an error.
func TestDecodeResponseUndecodable(t *testing.T) {
	cases := []struct {
		status int
		body   string
		want   string
	}{
		{200, "", "empty"},
		{529, " \n", "empty"},
		{200, "\x1f\x8b\x08\x00\xff\xfe", "binary data (6 bytes)"},
		{200, `{"id":"msg_1","content":[`, "invalid JSON at byte 25"},
		{200, "OK", `neither JSON nor an event stream: starts with "OK"`},
		{200, `[1,2]`, "expected a JSON object, found an array"},
		{200, `{"type":"message","content":"hi"}`, "content: expected an array, found a string"},
	}
	for _, c := range cases {
		_, err := Codec{}.DecodeResponse(c.status, nil, []byte(c.body))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("DecodeResponse(%d, %q)\n got  %v\n want %s…", c.status, c.body, err, c.want)
		}
	}
}

// TestDecodeResponseNotAMessage covers 2xx documents of other endpoints
// (count_tokens): no output, no error.
func TestDecodeResponseNotAMessage(t *testing.T) {
	resp, err := Codec{}.DecodeResponse(200, nil, []byte(`{"input_tokens":12}`))
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "output", resp.Output, []traffic.Message{})
	eq(t, "error", resp.Error == nil, true)
}
