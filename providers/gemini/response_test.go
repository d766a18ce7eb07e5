package gemini_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/llmtck/llmtck/traffic"
)

// sigMissing is the 400 Gemini 3 answers a call without its signature with
// (docs/provider-rules.md §4.4 G2).
const sigMissing = "Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:get_weather` , position 2. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details."

func TestResponseErrors(t *testing.T) {
	cases := []struct {
		name   string
		status int
		body   string
		want   *traffic.APIError
	}{
		{"error body", 400, `{"error": {"code": 400, "message": "` + sigMissing + `", "status": "INVALID_ARGUMENT"}}`,
			&traffic.APIError{Type: "INVALID_ARGUMENT", Code: "400", Message: sigMissing}},
		{"error array of a JSON stream", 429, `[{"error": {"code": 429, "message": "Resource has been exhausted", "status": "RESOURCE_EXHAUSTED"}}]`,
			&traffic.APIError{Type: "RESOURCE_EXHAUSTED", Code: "429", Message: "Resource has been exhausted"}},
		{"html from a proxy", 502, "<html><body>Bad Gateway</body></html>\n",
			&traffic.APIError{Code: "502", Message: "<html><body>Bad Gateway</body></html>"}},
		{"JSON without an error object", 500, `{"message": "boom"}`,
			&traffic.APIError{Message: `{"message":"boom"}`}},
		{"error object in a 200", 200, `{"error": "quota"}`,
			&traffic.APIError{Message: "quota"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := codec.DecodeResponse(tc.status, nil, []byte(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, resp.Error); d != "" {
				t.Errorf("error (-want +got):\n%s", d)
			}
			if resp.Stream != nil || len(resp.Output) != 0 {
				t.Errorf("an error body has no output: %+v", resp)
			}
		})
	}
}

func TestResponseUndecodable(t *testing.T) {
	cases := []struct {
		body, want string
	}{
		{"  \n", "empty"},
		{"\xff\xfe\x00", "binary data (3 bytes), neither JSON nor an event stream"},
		{"hello", `neither JSON nor an event stream: starts with "hello"`},
		{`{"candidates": [`, "invalid JSON at byte 16: unexpected end of JSON input"},
		{`{"candidates": {}}`, "candidates: expected an array, found an object"},
		{`{"candidates": [{"content": {"parts": [7]}}]}`, "candidates[0].content.parts[0]: expected an object, found a number"},
	}
	for _, tc := range cases {
		_, err := codec.DecodeResponse(200, nil, []byte(tc.body))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q: error %v, want %q", tc.body, err, tc.want)
		}
	}
}

func TestResponseDocuments(t *testing.T) {
	cases := []struct {
		name  string
		body  string
		stop  string
		texts []string // first text of each output message; "-" for none
	}{
		{"blocked prompt", `{"promptFeedback": {"blockReason": "PROHIBITED_CONTENT"}, "usageMetadata": {"promptTokenCount": 7}}`,
			"PROHIBITED_CONTENT", nil},
		{"candidate without content", `{"candidates": [{"finishReason": "SAFETY", "index": 0, "safetyRatings": []}]}`,
			"SAFETY", []string{"-"}},
		{"two candidates", `{"candidates": [{"content": {"role": "model", "parts": [{"text": "a"}]}, "finishReason": "STOP"}, {"content": {"parts": [{"text": "b"}]}, "finishReason": "MAX_TOKENS"}]}`,
			"STOP", []string{"a", "b"}},
		{"int-encoded enum Vertex and the Gemini API number apart", `{"candidates": [{"content": {"parts": [{"text": "a"}]}, "finishReason": 9}]}`,
			"9", []string{"a"}},
		{"unspecified finish reason", `{"candidates": [{"content": {"parts": [{"text": "a"}]}, "finishReason": "FINISH_REASON_UNSPECIFIED"}]}`,
			"", []string{"a"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := codec.DecodeResponse(200, nil, []byte(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			if resp.StopReason != tc.stop {
				t.Errorf("stop %q, want %q", resp.StopReason, tc.stop)
			}
			var texts []string
			for _, m := range resp.Output {
				if m.Role != traffic.RoleAssistant {
					t.Errorf("role %q", m.Role)
				}
				if len(m.Blocks) == 0 {
					texts = append(texts, "-")
				} else {
					texts = append(texts, m.Blocks[0].Text)
				}
			}
			if d := cmp.Diff(tc.texts, texts); d != "" {
				t.Errorf("output (-want +got):\n%s", d)
			}
			if resp.Stream != nil {
				t.Error("a JSON document has no stream facts")
			}
		})
	}
}
