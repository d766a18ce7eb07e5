package openai_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/providers/openai"
	"github.com/llmtck/llmtck/traffic"
)

func TestDecodeResponseErrors(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		want   *traffic.APIError
	}{{
		name:   "OpenAI error body",
		status: 400,
		body:   `{"error":{"message":"Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.","type":"invalid_request_error","param":"messages.[1].role","code":null}}`,
		want:   &traffic.APIError{Type: "invalid_request_error", Param: "messages.[1].role", Message: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'."},
	}, {
		name:   "Groq failed_generation is left out",
		status: 400,
		body:   `{"error":{"message":"Tool call validation failed","type":"invalid_request_error","code":"tool_use_failed","failed_generation":"{\"name\": \"f\", \"arguments\": {}}"}}`,
		want:   &traffic.APIError{Type: "invalid_request_error", Code: "tool_use_failed", Message: "Tool call validation failed"},
	}, {
		name:   "OpenRouter numeric code",
		status: 429,
		body:   `{"error":{"message":"Rate limit exceeded","code":429,"metadata":{"provider_name":null}},"user_id":"u"}`,
		want:   &traffic.APIError{Code: "429", Message: "Rate limit exceeded"},
	}, {
		name:   "bare string error",
		status: 401,
		body:   `{"error":"invalid api key"}`,
		want:   &traffic.APIError{Message: "invalid api key"},
	}, {
		name:   "error body inside a 200",
		status: 200,
		body:   `{"error":{"message":"overloaded","type":"server_error"}}`,
		want:   &traffic.APIError{Type: "server_error", Message: "overloaded"},
	}, {
		name:   "JSON without an error object",
		status: 404,
		body:   `{"detail":"Not Found"}`,
		want:   &traffic.APIError{Code: "404", Message: `{"detail":"Not Found"}`},
	}, {
		name:   "gateway HTML page",
		status: 502,
		body:   "<html><body>Bad Gateway</body></html>\n",
		want:   &traffic.APIError{Code: "502", Message: "<html><body>Bad Gateway</body></html>"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := openai.Codec{}.DecodeResponse(tc.status, nil, []byte(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(r.Error, tc.want) {
				t.Errorf("error = %+v, want %+v", r.Error, tc.want)
			}
			if r.Stream != nil || len(r.Output) != 0 {
				t.Errorf("an error body decoded output: %+v", r)
			}
		})
	}
}

func TestDecodeResponseUndecodable(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		want   string
	}{
		{"empty", 200, " \n", "empty"},
		{"gzip left compressed", 200, "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff", "binary data (10 bytes)"},
		{"text in a 200", 200, "hello", `neither JSON nor an event stream: starts with "hello"`},
		{"array in a 200", 200, "[1]", "expected a JSON object, found an array"},
		{"message of the wrong shape", 200, `{"choices":[{"message":{"role":"assistant","tool_calls":"x"}}]}`, "choices[0].message.tool_calls: expected an array, found a string"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := openai.Codec{}.DecodeResponse(tc.status, nil, []byte(tc.body))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestDecodeResponseChoices(t *testing.T) {
	body := `{"id":"chatcmpl-1","model":"deepseek-chat","choices":[
	 {"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":"","reasoning_content":"Let me check.","tool_calls":[{"id":"call_0","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]}},
	 {"index":1,"finish_reason":"content_filter","message":{"content":null,"refusal":"I can't help with that."}}],
	 "usage":{"prompt_tokens":20,"completion_tokens":9,"prompt_cache_hit_tokens":16,"completion_tokens_details":{"reasoning_tokens":4}}}`
	r, err := openai.Codec{}.DecodeResponse(200, nil, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if r.ID != "chatcmpl-1" || r.Model != "deepseek-chat" || r.StopReason != "tool_calls" || len(r.Output) != 2 {
		t.Fatalf("response = %+v", r)
	}
	a := r.Output[0]
	if a.Path != "choices[0].message" || len(a.Blocks) != 3 || a.Blocks[0].Type != traffic.BlockThinking || a.Blocks[2].Path != "choices[0].message.tool_calls[0]" || string(a.Blocks[2].Input) != `"{\"a\":1}"` {
		t.Errorf("choice 0 = %+v", a)
	}
	if b := r.Output[1]; b.Role != traffic.RoleAssistant || !b.ContentNull || string(b.Extra["refusal"]) != `"I can't help with that."` {
		t.Errorf("choice 1 = %+v", b)
	}
	want := &traffic.Usage{InputTokens: 20, OutputTokens: 9, CacheReadTokens: 16, ReasoningTokens: 4}
	if !reflect.DeepEqual(r.Usage, want) {
		t.Errorf("usage = %+v, want %+v", r.Usage, want)
	}
}

// Stream chunks saved one JSON object per line (no SSE framing) reassemble
// like the stream they came from. The framing that carries data: [DONE] was
// never stored, so a stream whose choices all finished is complete, and one
// cut before a finish_reason is truncated without naming [DONE].
func TestDecodeResponseJSONLines(t *testing.T) {
	body := strings.Join([]string{cStart, cArgs1, cArgs2, cFinish}, "\n") + "\n"
	r, err := openai.Codec{}.DecodeResponse(200, nil, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if r.Stream == nil || r.Stream.Events != 4 || !r.Stream.Complete || r.Stream.Truncated || len(r.Stream.Issues) != 0 {
		t.Fatalf("stream = %+v", r.Stream)
	}
	cut, err := openai.Codec{}.DecodeResponse(200, nil, []byte(strings.Join([]string{cStart, cArgs1, cArgs2}, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	if s := cut.Stream; s == nil || s.Complete || !s.Truncated || len(s.Issues) != 1 || strings.Contains(s.Issues[0].Message, "stream ended without data: [DONE]") {
		t.Fatalf("cut stream = %+v", cut.Stream)
	}
	if b := onlyCall(t, r); string(b.Input) != `"{\"city\":\"Paris\"}"` {
		t.Errorf("input = %s", b.Input)
	}
}
