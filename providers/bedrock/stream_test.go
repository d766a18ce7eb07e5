package bedrock_test

import (
	"strings"
	"testing"

	"github.com/llmtck/llmtck/internal/eventstream"
	"github.com/llmtck/llmtck/traffic"
)

func ev(typ, payload string) eventstream.Message { return eventstream.Event(typ, []byte(payload)) }

func streamOf(tb testing.TB, msgs ...eventstream.Message) []byte {
	tb.Helper()
	var b []byte
	for _, m := range msgs {
		var err error
		if b, err = eventstream.Append(b, m); err != nil {
			tb.Fatal(err)
		}
	}
	return b
}

var thinkingToolStream = []eventstream.Message{
	ev("messageStart", `{"role":"assistant"}`),
	ev("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"reasoningContent":{"text":"Let me "}}}`),
	ev("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"reasoningContent":{"text":"look."}}}`),
	ev("contentBlockDelta", `{"contentBlockIndex":0,"delta":{"reasoningContent":{"signature":"EqQBCkYIBxgCKkA+/="}}}`),
	ev("contentBlockStop", `{"contentBlockIndex":0}`),
	ev("contentBlockStart", `{"contentBlockIndex":1,"start":{"toolUse":{"toolUseId":"tooluse_1","name":"get_weather"}}}`),
	ev("contentBlockDelta", `{"contentBlockIndex":1,"delta":{"toolUse":{"input":"{\"city\":"}}}`),
	ev("contentBlockDelta", `{"contentBlockIndex":1,"delta":{"toolUse":{"input":"\"Paris\"}"}}}`),
	ev("contentBlockStop", `{"contentBlockIndex":1}`),
	ev("messageStop", `{"stopReason":"tool_use"}`),
	ev("metadata", `{"usage":{"inputTokens":10,"outputTokens":5,"totalTokens":15},"metrics":{"latencyMs":100}}`),
}

func TestStreamReassembly(t *testing.T) {
	resp, err := codec.DecodeResponse(200, nil, streamOf(t, thinkingToolStream...))
	if err != nil {
		t.Fatal(err)
	}
	if s := resp.Stream; !s.Complete || len(s.Issues) > 0 || s.Events != len(thinkingToolStream) {
		t.Fatalf("stream facts: %+v", s)
	}
	blocks := resp.Output[0].Blocks
	if len(blocks) != 2 {
		t.Fatalf("got %d blocks, want thinking and toolUse: %+v", len(blocks), blocks)
	}
	if b := blocks[0]; b.Type != traffic.BlockThinking || b.Text != "Let me look." || string(b.Signature) != `"EqQBCkYIBxgCKkA+/="` {
		t.Errorf("thinking block: %+v (signature %s)", b, b.Signature)
	}
	if b := blocks[1]; b.Type != traffic.BlockToolCall || b.ID != "tooluse_1" || string(b.Input) != `{"city":"Paris"}` {
		t.Errorf("toolUse block: %+v (input %s)", b, b.Input)
	}
	if resp.StopReason != "tool_use" {
		t.Errorf("stop reason %q", resp.StopReason)
	}
}

// A stream that ends early, breaks a frame or carries an exception says
// so, with the event where it happened.
func TestStreamFaults(t *testing.T) {
	whole := streamOf(t, thinkingToolStream...)
	offsets, _ := eventstream.Offsets(whole)
	corrupt := append([]byte(nil), whole...)
	corrupt[offsets[3]+20] ^= 0xff // inside the fourth frame's headers or payload
	exception := eventstream.Message{Headers: []eventstream.Header{
		{Name: ":message-type", Type: eventstream.TypeString, Value: "exception"},
		{Name: ":exception-type", Type: eventstream.TypeString, Value: "validationException"},
		{Name: ":content-type", Type: eventstream.TypeString, Value: "application/json"},
	}, Payload: []byte(`{"message":"The model returned the following errors: messages.1.content.0.thinking.signature: Field required"}`)}
	for _, tc := range []struct {
		name string
		body []byte
		want string // in an issue, or the stream error's message
	}{
		{"cut after the tool input", streamOf(t, thinkingToolStream[:8]...), "truncated"},
		{"bad CRC", corrupt, "byte"},
		{"exception", streamOf(t, append(thinkingToolStream[:3:3], exception)...), "signature: Field required"},
		{"delta before start", streamOf(t, thinkingToolStream[1:]...), "before messageStart"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := codec.DecodeResponse(200, nil, tc.body)
			if err != nil {
				t.Fatal(err)
			}
			s := resp.Stream
			if s.Complete && tc.want != "before messageStart" {
				t.Fatalf("stream reported complete: %+v", s)
			}
			var text []string
			for _, is := range s.Issues {
				text = append(text, is.Message)
			}
			if s.Error != nil {
				text = append(text, s.Error.Type+": "+s.Error.Message)
			}
			if s.Truncated {
				text = append(text, "truncated")
			}
			if got := strings.Join(text, "; "); !strings.Contains(got, tc.want) {
				t.Errorf("stream says %q, want it to mention %q", got, tc.want)
			}
		})
	}
}
