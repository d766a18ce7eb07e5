package cassette

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gotest.tools/v3/golden"
)

// awkward holds strings that YAML likes to change: every one must come back
// byte for byte through go-vcr and through both of our readers.
var awkward = []string{
	"", "a", "plain words", "trailing spaces   ", "  leading spaces", "\tleading tab\nline",
	"CRLF\r\nlines\r\n", "tabs\tinside\n", "\xff\xfe\x00binary", "no trailing newline\nlast",
	"\u2028 line separator\nx", "\u2029", "\u0085 NEL\n", "many trailing\n\n\n\n", "\n\nleading newlines",
	"   \n   \n", "\n", "\n\n", "\x00", "# comment\n---\n...\n", "key: value\n- item\n",
	"'quoted'\n\"double\"\n", "\ufeffBOM at start\n", "mid\ufeffBOM\n", "emoji 😀 and café\n",
	"\x7f DEL\n", "C1 \u0080\u009f\n", "a\n  \n", "a\n   ", "a\n\n   ", "|\n>", ": colon", "- dash",
	"null", "Null", "true", "no", "off", "y", "~", "0x1F", "1e3", "012", "2023-06-01", "12:30:00", "@at", "`tick`",
	"%pct", "!bang", "&anchor", "*alias", "{flow}", "[seq]", "a #comment", "a# not comment", "a:b", "a:", "?",
	"\r", "x\r", "line\n\n\nwith gaps\n", "ends with space \n", "\t\n", "a\n\tb\n", " ", "\t", "\\backslash\\",
	"é", "\ufffd replacement\n", "\xed\xa0\x80 surrogate bytes", "ok\xc0", "W/\"etag\"", "text/event-stream; charset=utf-8",
	"event: ping\ndata: {\"type\": \"ping\"}\n\n", "data: [DONE]\n\n", strings.Repeat("long line ", 20000),
	strings.Repeat("x\n", 5000), "\x1b[31mansi\x1b[0m\n", "200 OK", "404 Not Found", "200 a:b", "200 a: b", "2023-06-01 10:00:00", "1 x", "12 ", "0 null", "  indented first line\nsecond\n", " \nx\n", "x\n  y\n\n  \n",
}

func TestEncodeAwkwardStrings(t *testing.T) {
	for _, s := range awkward {
		c := &Cassette{Interactions: []*Interaction{{
			Request: Request{
				Method: s, URL: s,
				Header: http.Header{http.CanonicalHeaderKey("x-" + s): {s, "second"}, "X-Value": {s}},
				Body:   []byte(s),
			},
			Response: Response{
				Status: 200, StatusText: s,
				Header:       http.Header{"X-Value": {s}, "X-Empty": {}},
				Body:         []byte(s),
				Duration:     1500 * time.Microsecond,
				EventOffsets: []time.Duration{0, time.Microsecond, 3 * time.Millisecond},
			},
		}}}
		if s == "" {
			// Body nil, offsets empty but present: both must survive.
			c.Interactions[0].Request.Body = nil
			c.Interactions[0].Response.EventOffsets = []time.Duration{}
		}
		t.Run(strings.ToValidUTF8(clip(s, 20), "?"), func(t *testing.T) { roundTrip(t, c) })
	}
}

// Multi-line text is written as a literal block a person can read.
func TestEncodeUsesBlocksForStreams(t *testing.T) {
	c := genCassette(1, 300)
	data := string(encoded(t, c))
	if !strings.Contains(data, "    body: |+\n      event: content_block_delta\n      data: {\"type\"") {
		t.Errorf("SSE body not a literal block:\n%s", data)
	}
	if !strings.Contains(data, "    llmtck_event_offsets: [0s, 1.5ms]\n") {
		t.Errorf("offsets line missing:\n%s", data)
	}
}

func TestEncodeDeterministic(t *testing.T) {
	c := mustLoad(t, corpusFile(t, "test_chat__test_chat_tool_calls.yaml"))
	first := encoded(t, c)
	for range 5 {
		if !bytes.Equal(first, encoded(t, c)) {
			t.Fatal("Encode output changes between runs")
		}
	}
}

// Golden files pin the writer's layout for each reader's output; rewrite
// them with `go test -update`.
func TestEncodeGolden(t *testing.T) {
	for _, src := range []string{"rubyvcr.yml", "rvcr.yml", "devtools.har", "govcr_v1.yaml", "vcrpy_parsed_body.yaml"} {
		t.Run(src, func(t *testing.T) {
			c := mustLoad(t, filepath.Join("testdata", src))
			golden.Assert(t, string(encoded(t, c)), filepath.Join("golden", src+".yaml"))
		})
	}
}

// The recording proxy writes the header once and appends interactions; a
// file cut after any complete item must still load, with stock go-vcr too.
func TestAppendAndCut(t *testing.T) {
	c := genCassette(4, 2000)
	c.Interactions[2].Response.Body = []byte("\xff not utf-8")
	c.Interactions[3].Request.Body = []byte("ends without newline\nreally")
	var buf bytes.Buffer
	if err := EncodeHeader(&buf); err != nil {
		t.Fatal(err)
	}
	cuts := []int{buf.Len()}
	for _, in := range c.Interactions {
		if err := EncodeInteraction(&buf, in); err != nil {
			t.Fatal(err)
		}
		cuts = append(cuts, buf.Len())
	}
	data := buf.Bytes()
	if !bytes.Equal(data, encoded(t, c)) {
		t.Fatal("header + EncodeInteraction differs from Encode")
	}
	for n, cut := range cuts {
		part := &Cassette{Interactions: c.Interactions[:n]}
		got, err := Parse("cut.yaml", data[:cut])
		if err != nil {
			t.Fatalf("cut after %d items: %v", n, err)
		}
		if d := diffInteractions(writtenAll(part.Interactions), got.Interactions, true); d != "" {
			t.Fatalf("cut after %d items: %s", n, d)
		}
		checkGoVCR(t, part.Interactions, loadWithGoVCR(t, data[:cut]))
	}
	// Cut anywhere else: an error naming the file, or fewer interactions,
	// never a panic.
	for cut := 0; cut < len(data); cut += 97 {
		got, err := Parse("cut.yaml", data[:cut])
		if err != nil {
			checkOneLineError(t, err, "cut.yaml")
			continue
		}
		if len(got.Interactions) > len(c.Interactions) {
			t.Fatalf("cut at %d: %d interactions", cut, len(got.Interactions))
		}
	}
}

func TestSave(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "c.yaml")
	c := mustLoad(t, "testdata/rubyvcr.yml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("old contents"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Save(path, c); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", st.Mode())
	}
	if !bytes.Equal(readFile(t, path), encoded(t, c)) {
		t.Error("Save wrote something other than Encode")
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	// A folder that does not exist yet is made.
	if err := Save(filepath.Join(dir, "new", "d.yaml"), c); err != nil {
		t.Fatal(err)
	}
	// A path that cannot be written fails and leaves nothing behind.
	if err := Save(filepath.Join(path, "x.yaml"), c); err == nil {
		t.Error("Save under a file succeeded")
	}
}
