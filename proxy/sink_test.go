package proxy

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/internal/corpus"
)

// A body too large for memory leaves it (written in place, then moved to
// an unlinked temporary file when it turns out to be no literal block) and
// ends up in the cassette as the encoder writes it; stock go-vcr reads it
// back byte for byte, whether it is an event stream (a literal block),
// other text (double-quoted YAML) or not UTF-8 (!!binary).
func TestLargeBodiesSpillAndStillRoundTrip(t *testing.T) {
	smallSpill(t) // and a keeper keeps the rest of each body

	var text bytes.Buffer
	for i := 0; text.Len() < 300<<10; i++ {
		fmt.Fprintf(&text, "event: content_block_delta\ndata: {\"index\":%d,\"text\":\"é \\\"q\\\" \\t tab\\r\\n ☃ \u2028 \U0001F600\"}\r\n\r\n", i)
	}
	binary := append(bytes.Repeat([]byte("data: x\n\n"), 20000), 0xff, 0xfe, 0x00, '\n')
	// An event stream as providers send it, written as a literal block.
	var stream bytes.Buffer
	for i := 0; stream.Len() < 300<<10; i++ {
		fmt.Fprintf(&stream, "event: content_block_delta\ndata: {\"index\":%d,\"text\":\"é \\\"q\\\" \\n ☃  \\t\"}\n\n", i)
	}
	stream.WriteString("\n\n") // keep chomping, across the spill file and memory
	for _, tc := range []struct {
		name string
		body []byte
	}{{"utf8", text.Bytes()}, {"binary", binary}, {"block", stream.Bytes()}} {
		t.Run(tc.name, func(t *testing.T) {
			up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				for b := tc.body; len(b) > 0; {
					n := min(len(b), 10000)
					w.Write(b[:n])
					b = b[n:]
				}
			}))
			defer up.Close()
			path := filepath.Join(t.TempDir(), "big.yaml")
			rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: path})
			u, _ := url.Parse(up.URL)
			front := httptest.NewServer(NewHandler(rec, u))
			defer front.Close()
			for range 2 {
				if _, got := post(t, front.Client(), front.URL+"/v1/messages", []byte(`{"stream":true}`)); !bytes.Equal(got, tc.body) {
					t.Fatal("the client got a different body")
				}
			}
			if err := rec.Close(); err != nil {
				t.Fatal(err)
			}
			if raw, _ := os.ReadFile(path); tc.name == "block" && bytes.Count(raw, []byte("body: |+\n      event: content_block_delta\n")) != 2 {
				t.Error("the spilled event streams are not literal blocks")
			}
			stock := loadStock(t, path)
			ours := assertCanonical(t, path)
			if len(stock.Interactions) != 2 {
				t.Fatalf("%d interactions", len(stock.Interactions))
			}
			for i := range 2 {
				if stock.Interactions[i].Response.Body != string(tc.body) || !bytes.Equal(ours.Interactions[i].Response.Body, tc.body) {
					t.Fatalf("interaction %d: the body did not round-trip (%d bytes back, %d sent)", i, len(stock.Interactions[i].Response.Body), len(tc.body))
				}
			}
		})
	}
}

// A cassette whose last interaction was torn by a crash is repaired when a
// recorder opens it: the complete interactions stay, the torn bytes are
// moved aside, and recording goes on.
func TestTornCassetteIsRepairedNotLost(t *testing.T) {
	src := loadCorpus(t, antThinking)
	dir := t.TempDir()
	path := filepath.Join(dir, "torn.yaml")
	var full bytes.Buffer
	if err := src.Encode(&full); err != nil {
		t.Fatal(err)
	}
	var last bytes.Buffer
	cassette.EncodeInteraction(&last, src.Interactions[1])
	torn := full.Bytes()[:full.Len()-last.Len()/2] // the second interaction half written
	os.WriteFile(path, torn, 0o644)

	var logs syncBuffer
	rec := mustRecorder(t, Options{Mode: ModeRecord, Cassette: path, Log: &logs})
	if !strings.Contains(logs.String(), "torn interaction") {
		t.Errorf("no warning:\n%s", logs.String())
	}
	up := newProvider(t, false, &src.Interactions[1].Response)
	u, _ := url.Parse(up.URL)
	front := httptest.NewServer(NewHandler(rec, u))
	defer front.Close()
	post(t, front.Client(), front.URL+"/v1/messages?beta=true", src.Interactions[1].Request.Body)
	rec.Close()
	if c := loadStock(t, path); len(c.Interactions) != 2 {
		t.Fatalf("%d interactions after repair and one more call, want 2", len(c.Interactions))
	}
	saved, _ := filepath.Glob(path + ".torn-*")
	if len(saved) != 1 {
		t.Fatalf("torn bytes not kept: %v", saved)
	}
	if data, _ := os.ReadFile(saved[0]); !bytes.Equal(data, torn[full.Len()-last.Len():]) {
		t.Fatal("the kept torn bytes are not the cut-off tail")
	}
}

// A recording in another tool's format is never overwritten: the recorder
// refuses it and says why.
func TestRecorderRefusesForeignCassettes(t *testing.T) {
	src := filepath.Join(corpus.Dir(t), antThinking) // vcrpy
	data, _ := os.ReadFile(src)
	path := filepath.Join(t.TempDir(), "vcrpy.yaml")
	os.WriteFile(path, data, 0o644)
	_, err := NewRecorder(Options{Mode: ModeRecord, Cassette: path})
	if err == nil || !strings.Contains(err.Error(), "vcrpy") {
		t.Fatalf("err = %v, want a refusal naming the format", err)
	}
	garbage := filepath.Join(t.TempDir(), "garbage.yaml")
	os.WriteFile(garbage, []byte("\x00\x01 not a cassette"), 0o644)
	if _, err := NewRecorder(Options{Mode: ModeRecord, Cassette: garbage}); err == nil || !strings.Contains(err.Error(), "will not append") {
		t.Fatalf("err = %v", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, data) {
		t.Fatal("the foreign cassette was changed")
	}
}
