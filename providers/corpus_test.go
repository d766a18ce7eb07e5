package providers_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gotest.tools/v3/golden"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/traffic"
)

// TestCorpusSummaries decodes every real recording and pins a summary of
// what was decoded: a change in any codec that alters what the checks see
// shows up here as a golden diff.
func TestCorpusSummaries(t *testing.T) {
	for _, path := range corpus.Files(t) {
		name := corpus.Name(t, path)
		t.Run(name, func(t *testing.T) {
			c, err := cassette.Load(path)
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			exs := providers.DecodeCassette(c, "")
			for _, ex := range exs {
				if ex.Wire != traffic.WireUnknown && (ex.RequestErr != "" || ex.ResponseErr != "") {
					t.Errorf("interaction %d (%s): %s %s", ex.Index, ex.Wire, ex.RequestErr, ex.ResponseErr)
				}
			}
			golden.Assert(t, summarize(name, c, exs), filepath.Join("corpus", goldenName(name)))
		})
	}
}

func goldenName(name string) string {
	return strings.NewReplacer("/", "__", "[", "_", "]", "_").Replace(name) + ".golden"
}

// summarize renders what was decoded, one block per interaction.
func summarize(name string, c *cassette.Cassette, exs []traffic.Exchange) string {
	var b strings.Builder
	fmt.Fprintf(&b, "file: %s\nformat: %s\n", name, c.Format)
	var statuses []string
	for _, ex := range exs {
		statuses = append(statuses, fmt.Sprint(ex.Status))
	}
	fmt.Fprintf(&b, "statuses: %s\n", strings.Join(statuses, " "))
	for _, ex := range exs {
		fmt.Fprintf(&b, "\ninteraction %d: %s %s %s -> %d\n", ex.Index, ex.Wire, ex.Method, ex.URL, ex.Status)
		if r := ex.Request; r != nil {
			think := "-"
			if r.Thinking != nil {
				think = r.Thinking.Type
			}
			fmt.Fprintf(&b, "  request: model=%s stream=%t system=%d tools=%d thinking=%s\n", r.Model, r.Stream, len(r.System), len(r.Tools), think)
			for _, m := range r.Messages {
				fmt.Fprintf(&b, "    %s\n", messageLine(m))
			}
		}
		if r := ex.Response; r != nil {
			fmt.Fprintf(&b, "  response: stop=%s status=%s\n", orDash(r.StopReason), orDash(r.Status))
			for _, m := range r.Output {
				fmt.Fprintf(&b, "    %s\n", messageLine(m))
			}
			if r.Error != nil {
				fmt.Fprintf(&b, "  error: %s %s: %s\n", r.Error.Type, r.Error.Code, oneLine(r.Error.Message))
			}
			if s := r.Stream; s != nil {
				fmt.Fprintf(&b, "  stream: events=%d complete=%t facts=[%s]\n", s.Events, s.Complete, strings.Join(s.Facts(), " "))
			}
		}
	}
	return b.String()
}

// messageLine is "role[block block …]" with opaque payloads shown by length.
func messageLine(m traffic.Message) string {
	var parts []string
	for _, bl := range m.Blocks {
		s := string(bl.Type)
		if bl.WireType != "" && bl.WireType != string(bl.Type) {
			s += "(" + bl.WireType + ")"
		}
		if n := len(bl.Signature); n > 0 {
			s += fmt.Sprintf("+sig%d", n)
		}
		if n := len(bl.Data); n > 0 {
			s += fmt.Sprintf("+data%d", n)
		}
		if n := len(bl.EncryptedContent); n > 0 {
			s += fmt.Sprintf("+enc%d", n)
		}
		parts = append(parts, s)
	}
	return fmt.Sprintf("%s[%s]", m.Role, strings.Join(parts, " "))
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}

// TestCorpusRequestRoundTrip proves decode→encode→decode is the identity on
// every real request body, with every opaque token byte for byte.
func TestCorpusRequestRoundTrip(t *testing.T) {
	n := 0
	for _, path := range corpus.Files(t) {
		c, err := cassette.Load(path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for i, ex := range providers.DecodeCassette(c, "") {
			if ex.Request == nil {
				continue
			}
			n++
			name := fmt.Sprintf("%s#%d", corpus.Name(t, path), i)
			codec := providers.For(ex.Wire)
			body, err := codec.EncodeRequest(ex.Request)
			if err != nil {
				t.Errorf("%s: encode: %v", name, err)
				continue
			}
			if !rawjson.Equal(body, c.Interactions[i].Request.Body) {
				t.Errorf("%s: encoded body is not the same JSON value as the recorded one", name)
			}
			again, err := codec.DecodeRequest(body)
			if err != nil {
				t.Errorf("%s: decode of encoded body: %v", name, err)
				continue
			}
			again.Model, again.Stream = ex.Request.Model, ex.Request.Stream // filled from the URL, not the body
			if diff := cmp.Diff(ex.Request, again, rawTokens); diff != "" {
				t.Errorf("%s: decode→encode→decode mismatch (-want +got):\n%s", name, diff)
			}
		}
	}
	if n == 0 {
		t.Fatal("no request bodies decoded from the corpus")
	}
}

// rawTokens compares raw JSON tokens byte for byte.
var rawTokens = cmp.Comparer(func(a, b json.RawMessage) bool { return bytes.Equal(a, b) })
