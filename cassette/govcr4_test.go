package cassette

import (
	"bytes"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	govcr4 "gopkg.in/dnaeon/go-vcr.v4/pkg/cassette"
	"gopkg.in/dnaeon/go-vcr.v4/pkg/recorder"

	"github.com/llmtck/llmtck/internal/corpus"
)

// Every real recording written as a go-vcr v3/v4 cassette loads in stock
// go-vcr v4 with each body byte for byte (event streams included), is
// replayed by its recorder, and reads back in llmtck unchanged.
func TestV4CassettesLoadInGoVCRv4(t *testing.T) {
	dir := t.TempDir()
	files := append(corpus.Files(t), filepath.Join(corpus.SetDir(t, "wave2"), "pydantic__pydantic-ai", "tests__models__cassettes__test_bedrock__test_bedrock_model_thinking_part_stream.yaml"))
	replayed := 0
	for n, path := range files {
		c, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))+"-"+string(rune('a'+n%26)))
		if err := SaveV4(name+".yaml", c); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		stock, err := govcr4.Load(name)
		if err != nil {
			t.Fatalf("%s: go-vcr v4 does not load it: %v", path, err)
		}
		if len(stock.Interactions) != len(c.Interactions) {
			t.Fatalf("%s: go-vcr v4 reads %d interactions of %d", path, len(stock.Interactions), len(c.Interactions))
		}
		for i, in := range c.Interactions {
			got := stock.Interactions[i]
			if got.Request.Body != string(in.Request.Body) || got.Response.Body != string(in.Response.Body) || got.Response.Code != in.Response.Status {
				t.Errorf("%s #%d: go-vcr v4 reads other bodies or status", path, i)
			}
		}
		back, err := Load(name + ".yaml")
		if err != nil || back.Format != FormatGoVCRv2 || len(back.Interactions) != len(c.Interactions) {
			t.Fatalf("%s: llmtck reads its v4 cassette back as %v, %v", path, back, err)
		}
		for i := range c.Interactions {
			if !bytes.Equal(back.Interactions[i].Response.Body, c.Interactions[i].Response.Body) {
				t.Errorf("%s #%d: the body changed on the way through v4", path, i)
			}
		}
		if replayV4(t, name, c) {
			replayed++
		}
	}
	if replayed < 20 {
		t.Errorf("go-vcr v4's recorder replayed only %d cassettes", replayed)
	}
}

// replayV4 serves the first interaction of the cassette at name through go-vcr
// v4's recorder, matching on method, URL and body, and checks the response.
func replayV4(t *testing.T, name string, c *Cassette) bool {
	in := c.Interactions[0]
	if in.Request.Method == "" || !strings.HasPrefix(in.Request.URL, "http") {
		return false // response-only fixtures have no request to replay
	}
	rec, err := recorder.New(name,
		recorder.WithMode(recorder.ModeReplayOnly),
		recorder.WithSkipRequestLatency(true),
		recorder.WithMatcher(func(r *http.Request, i govcr4.Request) bool {
			var body []byte
			if r.Body != nil {
				body, _ = io.ReadAll(r.Body)
				r.Body = io.NopCloser(bytes.NewReader(body))
			}
			return r.Method == i.Method && r.URL.String() == i.URL && string(body) == i.Body
		}))
	if err != nil {
		t.Fatalf("%s: go-vcr v4's recorder: %v", name, err)
	}
	defer rec.Stop()
	req, err := http.NewRequest(in.Request.Method, in.Request.URL, bytes.NewReader(in.Request.Body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := rec.GetDefaultClient().Do(req)
	if err != nil {
		t.Fatalf("%s: go-vcr v4 replay: %v", name, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != in.Response.Status || !bytes.Equal(body, in.Response.Body) {
		t.Errorf("%s: go-vcr v4 replayed %d with %d bytes, want %d with %d", name, resp.StatusCode, len(body), in.Response.Status, len(in.Response.Body))
	}
	return true
}
