package anthropic

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gotest.tools/v3/golden"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// recording is one Anthropic corpus file, loaded.
type recording struct {
	name string
	path string
	c    *cassette.Cassette
}

// recordings loads the corpus files whose MANIFEST provider is anthropic.
func recordings(tb testing.TB) []recording {
	tb.Helper()
	dir := corpus.Dir(tb)
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma, r.LazyQuotes = '\t', true
	rows, err := r.ReadAll()
	if err != nil {
		tb.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	var out []recording
	for _, row := range rows[1:] {
		if row[col["provider"]] != "anthropic" {
			continue
		}
		path := filepath.Join(dir, row[col["local_file"]])
		c, err := cassette.Load(path)
		if err != nil {
			tb.Fatalf("load %s: %v", path, err)
		}
		out = append(out, recording{name: corpus.Name(tb, path), path: path, c: c})
	}
	if len(out) < 9 {
		tb.Fatalf("found %d Anthropic recordings in the MANIFEST, want at least 9", len(out))
	}
	return out
}

// TestCorpusRequests checks every real request body: it decodes, encodes
// back to the same JSON value, and survives decode→encode→decode with every
// opaque token byte-identical.
func TestCorpusRequests(t *testing.T) {
	n := 0
	for _, rec := range recordings(t) {
		for i, in := range rec.c.Interactions {
			if len(in.Request.Body) == 0 {
				continue
			}
			n++
			t.Run(rec.name+"#"+strconv.Itoa(i), func(t *testing.T) {
				roundTrip(t, in.Request.Body)
			})
		}
	}
	if n < 12 {
		t.Errorf("only %d request bodies checked", n)
	}
}

// TestCorpusResponses checks every real response: it decodes; a stream is
// complete with no issue and matches anthropic-sdk-go's accumulation served
// over a loopback server; a rejected call carries its error.
func TestCorpusResponses(t *testing.T) {
	for _, rec := range recordings(t) {
		for i, in := range rec.c.Interactions {
			t.Run(rec.name+"#"+strconv.Itoa(i), func(t *testing.T) {
				resp, err := Codec{}.DecodeResponse(in.Response.Status, in.Response.Header, in.Response.Body)
				if err != nil {
					t.Fatal(err)
				}
				if in.Response.Status >= 400 {
					if resp.Error == nil || resp.Error.Type == "" || resp.Error.Message == "" {
						t.Errorf("HTTP %d without a typed error: %+v", in.Response.Status, resp.Error)
					}
					return
				}
				if resp.Error != nil || len(resp.Output) != 1 || len(resp.Output[0].Blocks) == 0 {
					t.Fatalf("error %+v, output %+v", resp.Error, resp.Output)
				}
				if resp.Stream == nil {
					return
				}
				checkStream(t, resp, want{complete: true})
				sdk, err := sdkAccumulate(t, in.Response.Body)
				if err != nil {
					t.Fatalf("SDK: %v", err)
				}
				sameAsSDK(t, resp, sdk)
			})
		}
	}
}

// TestCorpusEchoes follows every opaque payload a response produced into the
// later requests that echo it: the reassembled signature, redacted data,
// server-tool block and tool input must equal what the client sent back —
// signatures and data byte for byte.
func TestCorpusEchoes(t *testing.T) {
	echoed, encrypted := 0, 0
	for _, rec := range recordings(t) {
		ins := rec.c.Interactions
		for i := 0; i+1 < len(ins); i++ {
			resp, err := Codec{}.DecodeResponse(ins[i].Response.Status, nil, ins[i].Response.Body)
			if err != nil || len(resp.Output) == 0 {
				continue
			}
			cur, err := Codec{}.DecodeRequest(ins[i].Request.Body)
			if err != nil {
				t.Fatalf("%s#%d: %v", rec.name, i, err)
			}
			next, err := Codec{}.DecodeRequest(ins[i+1].Request.Body)
			if err != nil {
				t.Fatalf("%s#%d: %v", rec.name, i+1, err)
			}
			if len(next.Messages) <= len(cur.Messages) {
				continue // a retry of the same conversation, not a continuation
			}
			sent := map[string]traffic.Block{}
			for _, m := range next.Messages {
				for _, b := range m.Blocks {
					sent[echoKey(b)] = b
				}
			}
			for _, b := range resp.Output[0].Blocks {
				if b.Type == traffic.BlockText {
					continue
				}
				e, ok := sent[echoKey(b)]
				if !ok {
					t.Errorf("%s#%d %s (%s) is not echoed in the next request", rec.name, i, b.Path, b.WireType)
					continue
				}
				echoed++
				switch b.Type {
				case traffic.BlockThinking:
					eq(t, rec.name+" "+b.Path+" signature bytes", string(e.Signature), string(b.Signature))
				case traffic.BlockRedacted:
					eq(t, rec.name+" "+b.Path+" data bytes", string(e.Data), string(b.Data))
				case traffic.BlockToolCall:
					if !rawjson.Equal(e.Input, b.Input) {
						t.Errorf("%s %s input: sent %s, received %s", rec.name, b.Path, e.Input, b.Input)
					}
				case traffic.BlockOther:
					// pydantic-ai echoes server-tool blocks without "caller" and
					// with one title's en dash turned into "-", and the API took
					// it: what must survive is every encrypted_content, bytes
					// and all, and the input.
					got, want := encryptedTokens(e.Raw), encryptedTokens(b.Raw)
					eq(t, rec.name+" "+b.Path+" encrypted_content tokens", got, want)
					encrypted += len(want)
					if b.WireType == "server_tool_use" && !rawjson.Equal(field(e.Raw, "input"), field(b.Raw, "input")) {
						t.Errorf("%s %s input: sent %s, received %s", rec.name, b.Path, field(e.Raw, "input"), field(b.Raw, "input"))
					}
				}
			}
		}
	}
	if echoed < 20 || encrypted < 50 {
		t.Errorf("only %d echoed blocks and %d encrypted_content tokens compared", echoed, encrypted)
	}
	t.Logf("%d echoed blocks, %d encrypted_content tokens compared", echoed, encrypted)
}

// encryptedTokens collects, in document order, the raw encrypted_content
// tokens anywhere inside raw.
func encryptedTokens(raw json.RawMessage) []string {
	var out []string
	switch rawjson.Kind(raw) {
	case "object":
		fields, _ := rawjson.Fields(raw)
		for _, f := range fields {
			if f.Key == "encrypted_content" {
				out = append(out, string(f.Value))
				continue
			}
			out = append(out, encryptedTokens(f.Value)...)
		}
	case "array":
		items, _ := rawjson.Array(raw)
		for _, it := range items {
			out = append(out, encryptedTokens(it)...)
		}
	}
	return out
}

// field returns the raw value of key in the object raw.
func field(raw json.RawMessage, key string) json.RawMessage {
	fields, _ := rawjson.Fields(raw)
	v, _ := rawjson.Lookup(fields, key)
	return v
}

// echoKey identifies a block across a response and the request echoing it.
func echoKey(b traffic.Block) string {
	switch b.Type {
	case traffic.BlockThinking:
		return "thinking " + b.Text
	case traffic.BlockRedacted:
		return "redacted " + string(b.Data)
	case traffic.BlockToolCall:
		return "tool_use " + b.ID
	case traffic.BlockOther:
		fields, _ := rawjson.Fields(b.Raw)
		return b.WireType + " " + lookupString(fields, "id") + lookupString(fields, "tool_use_id")
	}
	return string(b.Type) + " " + b.Text
}

// TestCorpusJSONL decodes the vercel fixture as it is on disk (bare JSON
// lines) and as the cassette reader frames it (SSE): same response.
func TestCorpusJSONL(t *testing.T) {
	for _, rec := range recordings(t) {
		if rec.c.Format != cassette.FormatJSONL {
			continue
		}
		raw, err := os.ReadFile(rec.path)
		if err != nil {
			t.Fatal(err)
		}
		a, err := Codec{}.DecodeResponse(200, nil, raw)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Codec{}.DecodeResponse(200, nil, rec.c.Interactions[0].Response.Body)
		if err != nil {
			t.Fatal(err)
		}
		a.Stream.Offsets, b.Stream.Offsets = nil, nil
		eq(t, rec.name, a, b)
		return
	}
	t.Fatal("no JSONL recording in the corpus")
}

// TestCorpusGolden pins the whole decoded model of the smaller recordings.
func TestCorpusGolden(t *testing.T) {
	for _, rec := range recordings(t) {
		if st, _ := os.Stat(rec.path); st.Size() > 30_000 {
			continue
		}
		t.Run(rec.name, func(t *testing.T) {
			var out []any
			for _, in := range rec.c.Interactions {
				var req *traffic.Request
				if len(in.Request.Body) > 0 {
					req, _ = Codec{}.DecodeRequest(in.Request.Body)
				}
				resp, _ := Codec{}.DecodeResponse(in.Response.Status, nil, in.Response.Body)
				out = append(out, map[string]any{"request": req, "response": resp})
			}
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(out); err != nil {
				t.Fatal(err)
			}
			name := strings.NewReplacer("/", "__", "[", "_", "]", "_").Replace(rec.name)
			golden.Assert(t, buf.String(), filepath.Join("corpus", name+".golden"))
		})
	}
}
