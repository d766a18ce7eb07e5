package cassette

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// appendCases returns every interaction the corpus, testdata and fuzz seeds
// hold, in every format that reads them, plus the awkward strings.
func appendCases(f *testing.F) []*Interaction {
	var out []*Interaction
	for _, s := range seeds(f) {
		for _, fm := range Formats {
			if c, err := ParseAs("seed", s, fm); err == nil {
				out = append(out, c.Interactions...)
			}
		}
	}
	for i, s := range awkward {
		out = append(out, &Interaction{
			Request: Request{Method: "POST", URL: s, Header: http.Header{http.CanonicalHeaderKey("X-" + s): {s}}, Body: []byte(s)},
			Response: Response{
				Status: 200, StatusText: s, Body: []byte(s),
				Header:       http.Header{"X-Value": {s, "X-" + s}, "Content-Length": {"3"}},
				Duration:     time.Duration(i) * time.Millisecond,
				EventOffsets: []time.Duration{time.Duration(i), time.Duration(i) * 700 * time.Microsecond},
			},
		})
	}
	return out
}

// FuzzAppendInteraction holds AppendInteraction to EncodeInteraction's
// bytes, after a prefix and into a reused buffer holding older bytes, on
// every seed interaction.
func FuzzAppendInteraction(f *testing.F) {
	cases := appendCases(f)
	if len(cases) < 100 {
		f.Fatalf("only %d seed interactions", len(cases))
	}
	reused := make([]byte, 0, 1<<10)
	for i, in := range cases {
		var want bytes.Buffer
		if err := EncodeInteraction(&want, in); err != nil {
			f.Fatal(err)
		}
		if got := AppendInteraction(nil, in); !bytes.Equal(got, want.Bytes()) {
			f.Fatalf("interaction %d: AppendInteraction(nil) differs from EncodeInteraction", i)
		}
		prefix := []byte(header)
		if got := AppendInteraction(prefix, in); !bytes.Equal(got, append([]byte(header), want.Bytes()...)) {
			f.Fatalf("interaction %d: AppendInteraction after a prefix differs", i)
		}
		// A reused buffer still holds the previous interaction's bytes
		// beyond its length; none of them may show through.
		reused = AppendInteraction(reused[:0], in)
		if !bytes.Equal(reused, want.Bytes()) {
			f.Fatalf("interaction %d: AppendInteraction into a reused buffer differs", i)
		}
	}
	f.Fuzz(func(t *testing.T, method, url, key, value string, body []byte) {
		in := &Interaction{
			Request: Request{Method: method, URL: url, Header: http.Header{key: {value}}, Body: body},
			Response: Response{Status: 200, Header: http.Header{"Content-Length": {value}}, Body: body,
				EventOffsets: []time.Duration{time.Duration(len(body))}},
		}
		var want bytes.Buffer
		EncodeInteraction(&want, in)
		got := AppendInteraction([]byte("x"), in)
		if !bytes.Equal(got[1:], want.Bytes()) {
			t.Fatalf("AppendInteraction differs from EncodeInteraction:\n%q\n%q", got[1:], want.Bytes())
		}
	})
}

// proxyCall is a call shaped like the proxy's throughput benchmark: about
// 1 KB of request, 2 KB of response, a handful of headers each.
func proxyCall() *Interaction {
	text := strings.Repeat("x", 2048)
	return &Interaction{
		Request: Request{
			Method: "POST", URL: "http://127.0.0.1:41234/v1/messages",
			Header: http.Header{"Content-Type": {"application/json"}, "User-Agent": {"Go-http-client/1.1"},
				"Anthropic-Version": {"2023-06-01"}, "X-Api-Key": {"REDACTED"}},
			Body: []byte(`{"model":"claude-x","max_tokens":10,"messages":[{"role":"user","content":"` + text[:1024] + `"}]}`),
		},
		Response: Response{
			Status: 200, StatusText: "200 OK",
			Header: http.Header{"Content-Type": {"application/json"}, "Date": {"Sat, 21 Nov 2026 02:10:55 GMT"},
				"Content-Length": {"2115"}},
			Body:     []byte(`{"id":"msg_1","type":"message","content":[{"type":"text","text":"` + text + `"}]}`),
			Duration: 1234567 * time.Nanosecond,
		},
	}
}

// A reused buffer makes appending a proxy-sized call allocation-free.
func TestAppendInteractionAllocs(t *testing.T) {
	in := proxyCall()
	buf := AppendInteraction(nil, in)
	if n := testing.AllocsPerRun(100, func() { buf = AppendInteraction(buf[:0], in) }); n != 0 {
		t.Errorf("AppendInteraction into a reused buffer allocates %v times per call, want 0", n)
	}
}

func BenchmarkEncodeInteraction(b *testing.B) {
	in := proxyCall()
	b.ReportAllocs()
	for range b.N {
		EncodeInteraction(discard{}, in)
	}
}

func BenchmarkAppendInteraction(b *testing.B) {
	in := proxyCall()
	var buf []byte
	b.ReportAllocs()
	for range b.N {
		buf = AppendInteraction(buf[:0], in)
	}
}

// BenchmarkAppendGrowingRequest encodes an interaction whose request is
// turn 600 of a growing conversation (about 350 KB of JSON): what a
// recorder writes for every call of a long agent session.
func BenchmarkAppendGrowingRequest(b *testing.B) {
	var msgs []string
	for i := range 600 {
		msgs = append(msgs, `{"role":"user","content":"question `+strconv.Itoa(i)+` `+strings.Repeat("words ", 40)+`"}`,
			`{"role":"assistant","content":[{"type":"text","text":"`+strings.Repeat("answer ", 40)+`"}]}`)
	}
	in := proxyCall()
	in.Request.Body = []byte(`{"model":"claude-x","max_tokens":10,"messages":[` + strings.Join(msgs, ",") + `]}`)
	b.SetBytes(int64(len(in.Request.Body)))
	var buf []byte
	for range b.N {
		buf = AppendInteraction(buf[:0], in)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
