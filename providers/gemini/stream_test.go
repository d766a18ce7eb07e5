package gemini_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/llmtck/llmtck/traffic"
)

// sseBody frames each chunk as a Gemini SSE event.
func sseBody(chunks ...string) string {
	var b strings.Builder
	for _, c := range chunks {
		b.WriteString("data: " + c + "\r\n\r\n")
	}
	return b.String()
}

const (
	chunkHel    = `{"candidates": [{"content": {"parts": [{"text": "Hel"}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 5,"candidatesTokenCount": 1},"modelVersion": "gemini-3-pro-preview","responseId": "r1"}`
	chunkLo     = `{"candidates": [{"content": {"parts": [{"text": "lo"}],"role": "model"},"index": 0}],"usageMetadata": {"promptTokenCount": 5,"candidatesTokenCount": 2}}`
	chunkStop   = `{"candidates": [{"content": {"parts": [{"text": "!"}],"role": "model"},"finishReason": "STOP","index": 0}],"usageMetadata": {"promptTokenCount": 5,"candidatesTokenCount": 3}}`
	chunkError  = `{"error": {"code": 500, "message": "An internal error has occurred.", "status": "INTERNAL"}}`
	chunkNoPart = `{"candidates": [{"content": {"parts": ["Hel"],"role": "model"},"index": 0}]}`
)

// TestStreamFaults feeds hand-built streams with each grammar fault and
// checks the exact facts decoded: issues, truncation, error, completeness.
func TestStreamFaults(t *testing.T) {
	cases := []struct {
		name      string
		body      string
		text      string // what the first candidate said
		stop      string
		complete  bool
		truncated bool
		err       *traffic.APIError
		issues    []traffic.StreamIssue
		partial   []int
	}{
		{
			name: "complete", body: sseBody(chunkHel, chunkLo, chunkStop),
			text: "Hello!", stop: "STOP", complete: true,
		},
		{
			name: "truncated before the finishReason", body: sseBody(chunkHel, chunkLo),
			text: "Hello", truncated: true, partial: []int{0},
		},
		{
			name: "cut inside an event", body: sseBody(chunkHel) + `data: {"candidates": [{"content": {"parts": [{"text": "lo`,
			text: "Hel", truncated: true, partial: []int{0},
			issues: []traffic.StreamIssue{{Check: "GEM-STREAM-001", Event: 1, Message: `event 1: data is not a JSON object: "{\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"lo"`}},
		},
		{
			name: "error chunk in a 200 stream", body: sseBody(chunkHel, chunkError),
			text: "Hel", partial: []int{0},
			err: &traffic.APIError{Type: "INTERNAL", Code: "500", Message: "An internal error has occurred."},
		},
		{
			name: "chunk after the error", body: sseBody(chunkHel, chunkError, chunkLo),
			text: "Hello", partial: []int{0},
			err:    &traffic.APIError{Type: "INTERNAL", Code: "500", Message: "An internal error has occurred."},
			issues: []traffic.StreamIssue{{Check: "GEM-STREAM-001", Event: 2, Message: "event 2: chunk after the error chunk (event 1)"}},
		},
		{
			name: "chunk after the final chunk", body: sseBody(chunkHel, chunkStop, chunkLo),
			text: "Hel!lo", stop: "STOP", complete: true,
			issues: []traffic.StreamIssue{
				{Check: "GEM-STREAM-001", Event: 2, Message: "event 2: chunk after the final chunk (event 1)"},
				{Check: "GEM-STREAM-001", Event: 2, Message: "event 2: candidate 0 has parts after its finishReason STOP"},
			},
		},
		{
			name: "a [DONE] sentinel Gemini never sends", body: sseBody(chunkStop, "[DONE]"),
			text: "!", stop: "STOP", complete: true,
			issues: []traffic.StreamIssue{
				{Check: "GEM-STREAM-001", Event: 1, Message: `event 1: data is not a JSON object: "[DONE]"`},
			},
		},
		{
			name: "empty chunk", body: sseBody(chunkHel, `{}`, chunkStop),
			text: "Hel!", stop: "STOP", complete: true,
			issues: []traffic.StreamIssue{{Check: "GEM-STREAM-001", Event: 1, Message: "event 1: chunk has no candidates, usageMetadata or promptFeedback"}},
		},
		{
			name: "chunk that is an array", body: sseBody(`[1, 2]`, chunkStop),
			text: "!", stop: "STOP", complete: true,
			issues: []traffic.StreamIssue{{Check: "GEM-STREAM-001", Event: 0, Message: `event 0: data is not a JSON object: "[1, 2]"`}},
		},
		{
			name: "part that is not an object", body: sseBody(chunkNoPart, chunkStop),
			text: "!", stop: "STOP", complete: true,
			issues: []traffic.StreamIssue{{Check: "GEM-STREAM-001", Event: 0, Message: "event 0: events[0].candidates[0].content.parts[0]: expected an object, found a string"}},
		},
		{
			name: "usage-only chunk before the end", body: sseBody(chunkHel, `{"usageMetadata": {"promptTokenCount": 5}}`, chunkStop),
			text: "Hel!", stop: "STOP", complete: true,
		},
		{
			name: "blocked prompt", body: sseBody(`{"promptFeedback": {"blockReason": "SAFETY"}, "usageMetadata": {"promptTokenCount": 5}}`),
			stop: "SAFETY", complete: true,
		},
		{
			name: "no event at all", body: ": keep-alive\n\n",
			truncated: true,
		},
		{
			name: "event names and padded data", body: "event: chunk\ndata:    " + chunkStop + "   \n\n",
			text: "!", stop: "STOP", complete: true,
		},
		{
			name: "unterminated last event that is whole", body: "data: " + chunkStop,
			text: "!", stop: "STOP", complete: true,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := codec.DecodeResponse(200, nil, []byte(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			s := resp.Stream
			if s == nil {
				t.Fatal("no stream facts")
			}
			if s.Complete != tc.complete || s.Truncated != tc.truncated {
				t.Errorf("complete=%t truncated=%t, want %t %t", s.Complete, s.Truncated, tc.complete, tc.truncated)
			}
			if d := cmp.Diff(tc.issues, s.Issues); d != "" {
				t.Errorf("issues (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.err, s.Error); d != "" {
				t.Errorf("stream error (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.err, resp.Error); d != "" {
				t.Errorf("response error (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.partial, s.Partial); d != "" {
				t.Errorf("partial (-want +got):\n%s", d)
			}
			// The parts of exactly the unfinished candidates are Incomplete.
			for m, msg := range resp.Output {
				for k, blk := range msg.Blocks {
					if want := slices.Contains(tc.partial, m); blk.Incomplete != want {
						t.Errorf("candidate %d part %d: Incomplete %t, want %t", m, k, blk.Incomplete, want)
					}
				}
			}
			if resp.StopReason != tc.stop {
				t.Errorf("stop %q, want %q", resp.StopReason, tc.stop)
			}
			if got := outputText(resp); got != tc.text {
				t.Errorf("text %q, want %q", got, tc.text)
			}
			if s.Events != len(s.Offsets) {
				t.Errorf("%d events but %d offsets", s.Events, len(s.Offsets))
			}
		})
	}
}

func outputText(resp *traffic.Response) string {
	var b strings.Builder
	if len(resp.Output) > 0 {
		for _, bl := range resp.Output[0].Blocks {
			b.WriteString(bl.Text)
		}
	}
	return b.String()
}

// TestStreamMerge pins the merge rule: plain text parts with the same
// thought flag join; a part with a signature or any other field never does.
func TestStreamMerge(t *testing.T) {
	type want struct {
		Type    traffic.BlockType
		Text    string
		Thought bool
		Signed  bool
		Path    string
	}
	chunk := func(parts string) string {
		return `{"candidates":[{"content":{"role":"model","parts":[` + parts + `]}}]}`
	}
	const stop = `{"candidates":[{"content":{"role":"model","parts":[]},"finishReason":"STOP"}]}`
	cases := []struct {
		name   string
		chunks []string
		want   []want
	}{
		{"text joins", []string{chunk(`{"text":"a"}`), chunk(`{"text":"b"},{"text":"c"}`), stop},
			[]want{{traffic.BlockText, "abc", false, false, "events[0].candidates[0].content.parts[0]"}}},
		{"an unsigned empty text joins", []string{chunk(`{"text":"a"}`), chunk(`{"text":""}`), stop},
			[]want{{traffic.BlockText, "a", false, false, "events[0].candidates[0].content.parts[0]"}}},
		{"thoughts join, then text", []string{chunk(`{"text":"x","thought":true}`), chunk(`{"text":"y","thought":true}`), chunk(`{"text":"z"}`), stop},
			[]want{
				{traffic.BlockThinking, "xy", true, false, "events[0].candidates[0].content.parts[0]"},
				{traffic.BlockText, "z", false, false, "events[2].candidates[0].content.parts[0]"},
			}},
		{"trailing signature part stays apart", []string{chunk(`{"text":"a"}`), chunk(`{"text":"","thoughtSignature":"c2ln"}`), stop},
			[]want{
				{traffic.BlockText, "a", false, false, "events[0].candidates[0].content.parts[0]"},
				{traffic.BlockText, "", false, true, "events[1].candidates[0].content.parts[0]"},
			}},
		{"nothing joins a signed part", []string{chunk(`{"text":"a","thoughtSignature":"c2ln"}`), chunk(`{"text":"b"}`), stop},
			[]want{
				{traffic.BlockText, "a", false, true, "events[0].candidates[0].content.parts[0]"},
				{traffic.BlockText, "b", false, false, "events[1].candidates[0].content.parts[0]"},
			}},
		{"signature-only part without text", []string{chunk(`{"text":"a"},{"thoughtSignature":"c2ln"}`), stop},
			[]want{
				{traffic.BlockText, "a", false, false, "events[0].candidates[0].content.parts[0]"},
				{traffic.BlockText, "", false, true, "events[0].candidates[0].content.parts[1]"},
			}},
		{"a part with another field stays apart", []string{chunk(`{"text":"a"}`), chunk(`{"text":"b","partMetadata":{}}`), stop},
			[]want{
				{traffic.BlockText, "a", false, false, "events[0].candidates[0].content.parts[0]"},
				{traffic.BlockText, "b", false, false, "events[1].candidates[0].content.parts[0]"},
			}},
		{"thought and text do not join", []string{chunk(`{"text":"x","thought":true},{"text":"y"}`), stop},
			[]want{
				{traffic.BlockThinking, "x", true, false, "events[0].candidates[0].content.parts[0]"},
				{traffic.BlockText, "y", false, false, "events[0].candidates[0].content.parts[1]"},
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := codec.DecodeResponse(200, nil, []byte(sseBody(tc.chunks...)))
			if err != nil {
				t.Fatal(err)
			}
			var got []want
			for _, b := range resp.Output[0].Blocks {
				got = append(got, want{b.Type, b.Text, b.Thought, len(b.Signature) > 0, b.Path})
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("blocks (-want +got):\n%s", d)
			}
			if !resp.Stream.Complete || len(resp.Stream.Issues) > 0 {
				t.Errorf("stream facts: %+v", resp.Stream)
			}
		})
	}
}

// TestStreamCandidates reassembles each candidate on its own and finishes
// only when all have a finishReason.
func TestStreamCandidates(t *testing.T) {
	both := `{"candidates":[{"content":{"role":"model","parts":[{"text":"A"}]},"index":0},{"content":{"role":"model","parts":[{"text":"B"}]},"index":1}]}`
	end0 := `{"candidates":[{"content":{"role":"model","parts":[{"text":"a"}]},"index":0,"finishReason":"MAX_TOKENS"}]}`
	end1 := `{"candidates":[{"content":{"role":"model","parts":[{"text":"b"}]},"index":1,"finishReason":"STOP"}]}`

	resp, err := codec.DecodeResponse(200, nil, []byte(sseBody(both, end0, end1)))
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Output) != 2 || resp.Output[0].Blocks[0].Text != "Aa" || resp.Output[1].Blocks[0].Text != "Bb" {
		t.Fatalf("output: %+v", resp.Output)
	}
	if resp.Output[1].Path != "candidates[1].content" || resp.StopReason != "MAX_TOKENS" {
		t.Errorf("path %q stop %q", resp.Output[1].Path, resp.StopReason)
	}
	if !resp.Stream.Complete || len(resp.Stream.Issues) > 0 {
		t.Errorf("facts: %+v", resp.Stream)
	}

	resp, err = codec.DecodeResponse(200, nil, []byte(sseBody(both, end0)))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Stream.Complete || !resp.Stream.Truncated || !cmp.Equal(resp.Stream.Partial, []int{1}) {
		t.Errorf("one candidate unfinished: %+v", resp.Stream)
	}
	if resp.Output[0].Blocks[0].Incomplete || !resp.Output[1].Blocks[0].Incomplete {
		t.Errorf("only the unfinished candidate's part is Incomplete: %+v", resp.Output)
	}
}

// TestArrayStream covers streamGenerateContent without alt=sse: a JSON
// array of responses, possibly cut off.
func TestArrayStream(t *testing.T) {
	resp, err := codec.DecodeResponse(200, nil, []byte("["+chunkHel+"\n,\n"+chunkStop+"\n]"))
	if err != nil {
		t.Fatal(err)
	}
	if s := resp.Stream; !s.Complete || s.Events != 2 || len(s.Issues) > 0 || s.Offsets[0] != 1 || outputText(resp) != "Hel!" {
		t.Errorf("array: %+v %q", s, outputText(resp))
	}

	cut := "[" + chunkHel + "\n,\n" + chunkStop[:40]
	resp, err = codec.DecodeResponse(200, nil, []byte(cut))
	if err != nil {
		t.Fatal(err)
	}
	s := resp.Stream
	if s.Complete || !s.Truncated || s.Events != 2 || len(s.Issues) != 1 || s.Issues[0].Event != 1 || outputText(resp) != "Hel" {
		t.Errorf("cut array: %+v %q", s, outputText(resp))
	}
	if s.Offsets[1] != len("["+chunkHel+"\n,\n") {
		t.Errorf("offset of the cut element: %d", s.Offsets[1])
	}
}

// TestStreamCutInsideARune: a connection dropped in the middle of a UTF-8
// sequence leaves a body that is not UTF-8; it is still a truncated stream.
func TestStreamCutInsideARune(t *testing.T) {
	body := sseBody(chunkHel) + `data: {"candidates": [{"content": {"parts": [{"text": "caf` + "\xc3"
	resp, err := codec.DecodeResponse(200, nil, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if s := resp.Stream; !s.Truncated || len(s.Issues) != 1 || outputText(resp) != "Hel" {
		t.Errorf("facts: %+v", s)
	}
}
