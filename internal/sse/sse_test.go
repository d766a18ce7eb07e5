package sse

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/llmtck/llmtck/internal/corpus"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []Event
	}{
		{"named events", "event: ping\ndata: {}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n", []Event{
			{Event: "ping", Data: "{}", Offset: 0, End: 22},
			{Event: "message_stop", Data: `{"type":"message_stop"}`, Offset: 22, End: 73},
		}},
		{"crlf and comments", ": OPENROUTER PROCESSING\r\n\r\ndata: a\r\n\r\n", []Event{
			{Data: "a", Offset: 27, End: 38},
		}},
		{"lone CR line endings", "data: a\rdata: b\r\r", []Event{
			{Data: "a\nb", Offset: 0, End: 17},
		}},
		{"no space after colon and multi-line data", "data:x\ndata: y\nid: 7\n\n", []Event{
			{Data: "x\ny", ID: "7", Offset: 0, End: 22},
		}},
		{"unterminated last event", "data: a\n\ndata: {\"partial\"", []Event{
			{Data: "a", Offset: 0, End: 9},
			{Data: `{"partial"`, Offset: 9, End: 25, Unterminated: true},
		}},
		{"terminated by a final newline only", "data: a\n", []Event{
			{Data: "a", Offset: 0, End: 8, Unterminated: true},
		}},
		{"field without value and unknown fields", "retry: 10\nfoo\ndata\n\n", []Event{
			{Data: "", Offset: 0, End: 20},
		}},
		{"empty", "", nil},
		{"only comments", ": hi\n\n: there\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Parse([]byte(tt.body))); diff != "" {
				t.Errorf("Parse mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWriteParseRoundTrip(t *testing.T) {
	var body []byte
	body = Write(body, "content_block_delta", `{"type":"content_block_delta"}`)
	body = Write(body, "", "line one\nline two")
	got := Parse(body)
	if len(got) != 2 || got[0].Event != "content_block_delta" || got[1].Data != "line one\nline two" {
		t.Fatalf("round trip lost data: %+v", got)
	}
}

func TestLooks(t *testing.T) {
	for body, want := range map[string]bool{
		"event: x\ndata: y\n\n": true,
		"\n\ndata: {}\n\n":      true,
		": comment\n":           true,
		`{"type":"message"}`:    false,
		"":                      false,
	} {
		if got := Looks([]byte(body)); got != want {
			t.Errorf("Looks(%q) = %t, want %t", body, got, want)
		}
	}
}

// FuzzParse checks the parser never panics, that offsets stay inside the
// body and increase, and that every event's bytes start with a field.
func FuzzParse(f *testing.F) {
	f.Add([]byte("event: a\ndata: b\n\n"))
	f.Add([]byte("data: a\r\n\r\ndata: b"))
	f.Add([]byte(": c\rdata\r\r"))
	// Real bodies: the corpus files hold SSE text inside their YAML, httprr
	// and JSONL framing, which also exercises odd line structures.
	for _, p := range corpus.Files(f) {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		last := -1
		for _, ev := range Parse(body) {
			if ev.Offset <= last || ev.Offset > len(body) || ev.End > len(body) || ev.End < ev.Offset {
				t.Fatalf("bad offsets %d..%d in a %d-byte body", ev.Offset, ev.End, len(body))
			}
			last = ev.Offset
			if strings.HasPrefix(string(body[ev.Offset:]), ":") {
				t.Fatalf("event starts at a comment line")
			}
		}
	})
}
