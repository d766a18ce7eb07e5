package eventstream

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"strings"
	"testing"
	"time"

	awses "github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/internal/corpus"
)

// streams are the event-stream bodies of the corpus: ConverseStream
// responses recorded by rig, langchain-aws and pydantic-ai.
func streams(tb testing.TB) map[string][]byte {
	tb.Helper()
	out := map[string][]byte{}
	for _, path := range corpus.SetFiles(tb, corpus.Wave2) {
		c, err := cassette.Load(path)
		if err != nil {
			tb.Fatal(err)
		}
		for i, in := range c.Interactions {
			if Looks(in.Response.Body) {
				out[corpus.Name(tb, path)+"#"+string(rune('0'+i))] = in.Response.Body
			}
		}
	}
	if len(out) < 5 {
		tb.Fatalf("found %d event streams in the corpus, want at least 5", len(out))
	}
	return out
}

// Every recorded stream decodes, agrees with the AWS SDK's decoder, and
// encodes back to the same bytes.
func TestCorpusStreamsByteForByte(t *testing.T) {
	for name, body := range streams(t) {
		t.Run(name, func(t *testing.T) {
			msgs, err := Decode(body)
			if err != nil {
				t.Fatal(err)
			}
			var again []byte
			for _, m := range msgs {
				if again, err = Append(again, m); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(again, body) {
				t.Fatalf("re-encoded %d bytes differ from the %d recorded", len(again), len(body))
			}
			dec := awses.NewDecoder()
			r := bytes.NewReader(body)
			for i, m := range msgs {
				want, err := dec.Decode(r, nil)
				if err != nil {
					t.Fatalf("AWS decoder, message %d: %v", i, err)
				}
				if !bytes.Equal(want.Payload, m.Payload) || len(want.Headers) != len(m.Headers) {
					t.Fatalf("message %d: payload or headers differ from the AWS decoder's", i)
				}
				for j, h := range want.Headers {
					if h.Name != m.Headers[j].Name || h.Value.String() != headerString(m.Headers[j]) {
						t.Errorf("message %d header %d: AWS %s=%s, ours %s=%s", i, j, h.Name, h.Value, m.Headers[j].Name, headerString(m.Headers[j]))
					}
				}
			}
			if r.Len() != 0 {
				t.Errorf("the AWS decoder left %d bytes", r.Len())
			}
			if typ := msgs[0].String(":event-type"); typ != "messageStart" {
				t.Errorf("first event %q, want messageStart", typ)
			}
		})
	}
}

// headerString renders a value as the AWS SDK's HeaderValue.String does.
func headerString(h Header) string {
	switch v := h.Value.(type) {
	case string:
		return v
	case bool:
		if v {
			return "true"
		}
		return "false"
	}
	var enc awses.Headers
	switch v := h.Value.(type) {
	case int8:
		enc.Set(h.Name, awses.Int8Value(v))
	case int16:
		enc.Set(h.Name, awses.Int16Value(v))
	case int32:
		enc.Set(h.Name, awses.Int32Value(v))
	case int64:
		enc.Set(h.Name, awses.Int64Value(v))
	case []byte:
		enc.Set(h.Name, awses.BytesValue(v))
	case time.Time:
		enc.Set(h.Name, awses.TimestampValue(v))
	case [16]byte:
		enc.Set(h.Name, awses.UUIDValue(v))
	}
	return enc[0].Value.String()
}

// Every header type round-trips, and the AWS SDK's encoder writes the same
// bytes as ours.
func TestHeaderTypesAgreeWithAWS(t *testing.T) {
	at := time.UnixMilli(1732000000123).UTC()
	m := Message{Headers: []Header{
		{Name: "t", Type: TypeTrue, Value: true}, {Name: "f", Type: TypeFalse, Value: false},
		{Name: "b", Type: TypeByte, Value: int8(-3)}, {Name: "s", Type: TypeShort, Value: int16(-300)},
		{Name: "i", Type: TypeInt, Value: int32(70000)}, {Name: "l", Type: TypeLong, Value: int64(-1 << 40)},
		{Name: "y", Type: TypeBytes, Value: []byte{0, 1, 2}}, {Name: ":event-type", Type: TypeString, Value: "contentBlockDelta"},
		{Name: "ts", Type: TypeTimestamp, Value: at}, {Name: "u", Type: TypeUUID, Value: [16]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}},
	}, Payload: []byte(`{"delta":{"text":"hi"}}`)}
	ours, err := Append(nil, m)
	if err != nil {
		t.Fatal(err)
	}
	var theirs bytes.Buffer
	aws := awses.Message{Payload: m.Payload}
	aws.Headers.Set("t", awses.BoolValue(true))
	aws.Headers.Set("f", awses.BoolValue(false))
	aws.Headers.Set("b", awses.Int8Value(-3))
	aws.Headers.Set("s", awses.Int16Value(-300))
	aws.Headers.Set("i", awses.Int32Value(70000))
	aws.Headers.Set("l", awses.Int64Value(-1<<40))
	aws.Headers.Set("y", awses.BytesValue([]byte{0, 1, 2}))
	aws.Headers.Set(":event-type", awses.StringValue("contentBlockDelta"))
	aws.Headers.Set("ts", awses.TimestampValue(at))
	aws.Headers.Set("u", awses.UUIDValue([16]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}))
	if err := awses.NewEncoder().Encode(&theirs, aws); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ours, theirs.Bytes()) {
		t.Fatalf("encodings differ:\nours   % x\ntheirs % x", ours, theirs.Bytes())
	}
	back, err := Decode(ours)
	if err != nil || len(back) != 1 || len(back[0].Headers) != len(m.Headers) {
		t.Fatalf("decode: %v %+v", err, back)
	}
	if back[0].String(":event-type") != "contentBlockDelta" || !back[0].Headers[8].Value.(time.Time).Equal(at) {
		t.Errorf("headers read back as %+v", back[0].Headers)
	}
}

// A bad frame is an error naming the byte it is at; what came before it is
// kept.
func TestBadFrames(t *testing.T) {
	one, _ := Append(nil, Event("messageStart", []byte(`{"role":"assistant"}`)))
	two, _ := Append(append([]byte(nil), one...), Event("messageStop", []byte(`{"stopReason":"end_turn"}`)))
	second := len(one)
	mutate := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), two...)) }
	for _, tc := range []struct {
		name string
		body []byte
		at   int
		msg  string
	}{
		{"message CRC", mutate(func(b []byte) []byte { b[len(b)-1] ^= 1; return b }), len(two) - 4, "message CRC"},
		{"payload byte", mutate(func(b []byte) []byte { b[second+preludeLen+70] ^= 1; return b }), len(two) - 4, "message CRC"},
		{"prelude CRC", mutate(func(b []byte) []byte { b[second+9] ^= 1; return b }), second + 8, "prelude CRC"},
		{"truncated prelude", two[:second+7], second, "truncated: 7 bytes left"},
		{"truncated message", two[:len(two)-3], second, "truncated: message of"},
		{"oversized length", mutate(func(b []byte) []byte {
			binary.BigEndian.PutUint32(b[second:], MaxFrameLen+1)
			binary.BigEndian.PutUint32(b[second+8:], crc32IEEE(b[second:second+8]))
			return b
		}), second, "over the 16777216-byte limit"},
		{"headers longer than the message", mutate(func(b []byte) []byte {
			binary.BigEndian.PutUint32(b[second+4:], 1<<16)
			binary.BigEndian.PutUint32(b[second+8:], crc32IEEE(b[second:second+8]))
			return b
		}), second + 4, "does not fit in a message"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msgs, err := Decode(tc.body)
			var e *Error
			if !errors.As(err, &e) || e.Offset != tc.at || !strings.Contains(e.Msg, tc.msg) {
				t.Fatalf("err = %v, want an error at byte %d containing %q", err, tc.at, tc.msg)
			}
			if len(msgs) != 1 || msgs[0].String(":event-type") != "messageStart" {
				t.Errorf("the whole first message was not kept: %+v", msgs)
			}
		})
	}
}

// FuzzDecode: never a panic; whatever decodes re-encodes to its bytes.
func FuzzDecode(f *testing.F) {
	for _, body := range streams(f) {
		f.Add(body[:min(len(body), 2048)])
	}
	one, _ := Append(nil, Event("contentBlockDelta", []byte(`{"contentBlockIndex":0}`)))
	f.Add(one)
	f.Add([]byte{0, 0, 0, 16, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		msgs, err := Decode(b)
		var e *Error
		if err != nil && !errors.As(err, &e) {
			t.Fatalf("error of type %T: %v", err, err)
		}
		var again []byte
		for _, m := range msgs {
			if again, err = Append(again, m); err != nil {
				t.Fatalf("a decoded message does not encode: %v", err)
			}
		}
		if !bytes.HasPrefix(b, again) {
			t.Fatalf("decoded messages re-encode to other bytes")
		}
	})
}

func crc32IEEE(b []byte) uint32 { return crc32.ChecksumIEEE(b) }
