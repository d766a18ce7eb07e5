package anthropic

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/llmtck/llmtck/internal/eventstream"
	"github.com/llmtck/llmtck/internal/sse"
	"github.com/llmtck/llmtck/traffic"
)

// asInvokeStream re-frames an Anthropic SSE body the way Bedrock's
// InvokeModelWithResponseStream sends it: one event-stream "chunk" frame
// per event, its payload {"bytes": "<base64 of the event JSON>"}.
func asInvokeStream(t *testing.T, sseBody []byte) []byte { return invokeStream(t, sseBody) }

func invokeStream(t testing.TB, sseBody []byte) []byte {
	t.Helper()
	var out []byte
	for _, ev := range sse.Parse(sseBody) {
		if ev.Data == "" {
			continue
		}
		payload, err := json.Marshal(struct {
			Bytes []byte `json:"bytes"`
		}{[]byte(ev.Data)})
		if err != nil {
			t.Fatal(err)
		}
		if out, err = eventstream.Append(out, eventstream.Event("chunk", payload)); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestInvokeStreamDecodesAsSSE: every real Anthropic stream of the corpus,
// re-framed as InvokeModelWithResponseStream, decodes to the same message.
func TestInvokeStreamDecodesAsSSE(t *testing.T) {
	n := 0
	for _, rec := range recordings(t) {
		for i, in := range rec.c.Interactions {
			if in.Response.Status != 200 || len(sse.Parse(in.Response.Body)) == 0 {
				continue
			}
			want, err := Codec{}.DecodeResponse(200, nil, in.Response.Body)
			if err != nil || want.Stream == nil {
				continue
			}
			n++
			t.Run(rec.name+"#"+strconv.Itoa(i), func(t *testing.T) {
				got, err := Codec{}.DecodeResponse(200, nil, asInvokeStream(t, in.Response.Body))
				if err != nil {
					t.Fatal(err)
				}
				ignore := cmpopts.IgnoreFields(traffic.Stream{}, "Offsets", "Events")
				if d := cmp.Diff(want, got, ignore); d != "" {
					t.Errorf("event-stream framing decodes differently (-sse +eventstream):\n%s", d)
				}
			})
		}
	}
	if n < 5 {
		t.Fatalf("re-framed only %d real streams", n)
	}
}

// A Bedrock exception frame ends the stream as an Anthropic error event.
func TestInvokeStreamException(t *testing.T) {
	start := `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude","usage":{"input_tokens":1,"output_tokens":0}}}`
	var body []byte
	payload, _ := json.Marshal(struct {
		Bytes []byte `json:"bytes"`
	}{[]byte(start)})
	body, _ = eventstream.Append(body, eventstream.Event("chunk", payload))
	body, _ = eventstream.Append(body, eventstream.Message{Headers: []eventstream.Header{
		{Name: ":message-type", Type: eventstream.TypeString, Value: "exception"},
		{Name: ":exception-type", Type: eventstream.TypeString, Value: "throttlingException"},
	}, Payload: []byte(`{"message":"Too many requests, please wait before trying again."}`)})
	resp, err := Codec{}.DecodeResponse(200, nil, body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Stream.Error == nil || resp.Stream.Error.Type != "throttlingException" || resp.Stream.Complete {
		t.Fatalf("stream error %+v, complete %v", resp.Stream.Error, resp.Stream.Complete)
	}
}
