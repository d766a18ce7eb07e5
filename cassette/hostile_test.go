package cassette

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/llmtck/llmtck/internal/corpus"
)

// parseHostile parses data and holds the result to the rules: a one-line
// *Error naming the file, or a cassette; quickly, and without a panic.
func parseHostile(t *testing.T, name string, data []byte) (*Cassette, error) {
	t.Helper()
	start := time.Now()
	c, err := Parse(name, data)
	// A hang guard, not a speed bound: the race detector on a loaded CI
	// machine makes a parse many times slower.
	if d := time.Since(start); d > time.Minute {
		t.Errorf("%s: took %v", name, d)
	}
	if err != nil {
		checkOneLineError(t, err, name)
	}
	return c, err
}

func expectError(t *testing.T, name, input, want string) {
	t.Helper()
	_, err := parseHostile(t, name, []byte(input))
	if err == nil {
		t.Fatalf("%s: no error", name)
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("%s: error %q\nwant it to contain %q", name, err, want)
	}
}

func TestHostileEmptyAndBinary(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.yaml")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(empty)
	if err == nil || err.Error() != empty+": empty file, expected a recording (go-vcr, vcrpy or Ruby VCR YAML, httprr, HAR or JSONL)" {
		t.Errorf("empty: %v", err)
	}
	_, err = Load(filepath.Join(dir, "missing.yaml"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v does not wrap fs.ErrNotExist", err)
	}
	checkOneLineError(t, err, filepath.Join(dir, "missing.yaml"))
	_, err = Load(dir)
	checkOneLineError(t, err, dir)

	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 50 {
		junk := make([]byte, 1+rng.IntN(4096))
		for j := range junk {
			junk[j] = byte(rng.UintN(256))
		}
		if _, err := parseHostile(t, "junk.bin", junk); err == nil {
			t.Errorf("junk %d parsed", i)
		}
	}
	gz := &bytes.Buffer{}
	zw := gzip.NewWriter(gz)
	zw.Write(readFile(t, "testdata/rubyvcr.yml"))
	zw.Close()
	// A gzip-compressed recording is read as the recording inside it.
	zipped, err := Parse("c.yaml.gz", gz.Bytes())
	if err != nil {
		t.Fatalf("gzip-compressed recording: %v", err)
	}
	plain, err := Parse("c.yaml", readFile(t, "testdata/rubyvcr.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(zipped.Interactions) != len(plain.Interactions) || zipped.Format != plain.Format {
		t.Errorf("gzip-compressed: %d interactions as %s, plain: %d as %s", len(zipped.Interactions), zipped.Format, len(plain.Interactions), plain.Format)
	}
	// A bomb is refused after reading at most the size limit, not expanded.
	// The limit is lowered to 8 MiB: at MaxSize the verdict is the same,
	// only slow under -race.
	defer func(old int64) { maxInflatedFile = old }(maxInflatedFile)
	maxInflatedFile = 8 << 20
	bomb := &bytes.Buffer{}
	zw = gzip.NewWriter(bomb)
	zw.Write([]byte("interactions:\n"))
	zeros := make([]byte, 1<<20)
	for range maxInflatedFile>>20 + 1 {
		zw.Write(zeros)
	}
	zw.Close()
	expectError(t, "bomb.yaml.gz", bomb.String(), "more than the 8 MiB limit once decompressed")
}

// Every corpus file, cut short at many points: an error or fewer
// interactions, never a panic or a hang.
func TestHostileTruncated(t *testing.T) {
	for _, path := range corpus.Files(t) {
		data := readFile(t, path)
		name := filepath.Base(path)
		cuts, tail := 24, 8
		if len(data) > 100_000 {
			cuts, tail = 4, 2 // one 700 KB file; it goes the yaml.v3 way each time
		}
		for i := range cuts {
			parseHostile(t, name, data[:len(data)*i/cuts])
		}
		for cut := max(0, len(data)-tail); cut < len(data); cut++ {
			parseHostile(t, name, data[:cut])
		}
	}
	expectError(t, "t.httprr", "httprr trace v1\n360 1759\nPOST https://api.anthropic.com/v1/messages HTTP/1.1\r\n", "t.httprr:2: record 0: truncated: needs 2119 bytes, only 53 left")
	expectError(t, "t.httprr", "httprr trace v1\n12 x\n", "t.httprr:2: record 0: expected a `<request bytes> <response bytes>` line")
	expectError(t, "t.httprr", "httprr trace v1\n-1 5\nabcd", "expected a `<request bytes> <response bytes>` line")
	expectError(t, "t.httprr", "httprr trace v1\n9223372036854775807 9223372036854775807\n", "truncated")
	expectError(t, "t.httprr", "httprr trace v1\n5 5\nhelloworld", "t.httprr:3: record 0: request: malformed HTTP request")
	expectError(t, "t.jsonl", "{\"type\":\"a\"}\n{\"type\":\"b\",\"x\":\n", "t.jsonl:2: expected one JSON object per line (JSONL): unexpected end of JSON input")
	expectError(t, "t.jsonl", "{\"type\":\"a\"}\n[1,2]\n", "t.jsonl:2: expected one JSON object per line (JSONL), found array")
	expectError(t, "t.har", "{\n  \"log\": {\n    \"entries\": [\n      {\"request\": {\"method\": 1}}\n    ]\n  }\n}\n", "t.har:4: log.entries.request.method: expected string, found a JSON number")
	expectError(t, "t.har", "{\n  \"log\": {\n    \"entries\": [\n", "t.har:4: invalid JSON: unexpected end of JSON input")
	expectError(t, "t.yaml", "interactions:\n- request:\n    uri: http://x\n  response:\n    body: {string: \"x\n", "t.yaml:5: invalid YAML: found unexpected end of stream")
	expectError(t, "t.yaml", "version: 1\ninteractions:\n- request:\n    url: http://x\n", "t.yaml:3: interaction 0 has no `response`")
	expectError(t, "t.yaml", "version: 1\ninteractions:\n- request:\n    url: http://x\n  response:\n    body: x\n", "t.yaml:5: interaction 0 response has neither `code` nor a `status` such as \"200 OK\"")
	expectError(t, "t.yaml", "interactions:\n- request:\n    uri: http://x\n  response:\n    body: x\n", "t.yaml:4: interaction 0 response has no `status`")
	expectError(t, "t.yaml", "version: 1\ninteractions:\n- request: {url: x}\n  response: {code: 2oo}\n", "t.yaml:4: expected a whole number for interaction 0 response code, found \"2oo\"")
	expectError(t, "t.yaml", "version: 1\ninteractions:\n- request: {url: x}\n  response: {code: 200, duration: soon}\n", "expected a duration such as 1.5s for interaction 0 response duration, found \"soon\"")
	expectError(t, "t.yaml", "version: 1\ninteractions:\n- request: {url: x, headers: {A: [[1]]}}\n  response: {code: 200}\n", "t.yaml:3: expected a string for interaction 0 request headers.A, found a sequence")
	expectError(t, "t.yaml", "version: 1\ninteractions:\n- request: {url: x, body: !!binary '%%%'}\n  response: {code: 200}\n", "t.yaml:3: interaction 0 request body: invalid base64 in a binary value")
}

// A "billion laughs": nine levels of ten aliases each.
func billionLaughs(where string) string {
	var b strings.Builder
	b.WriteString("a0: &a0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for j := range 10 {
			if j > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	switch where {
	case "parsed_body":
		b.WriteString("interactions:\n- request:\n    uri: http://x\n    parsed_body: *a9\n  response:\n    status: {code: 200}\n")
	case "headers":
		b.WriteString("version: 1\ninteractions:\n- request:\n    url: http://x\n    headers: {X: *a9}\n  response:\n    code: 200\n")
	}
	return b.String()
}

func TestHostileAliases(t *testing.T) {
	for where, want := range map[string]string{"parsed_body": "too many aliases", "headers": "found a sequence"} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		expectError(t, where+".yaml", billionLaughs(where), want)
		runtime.ReadMemStats(&after)
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 512<<20 {
			t.Errorf("%s: a YAML bomb allocated %d MB", where, grew>>20)
		}
	}
	// A cycle: an anchor that contains its own alias.
	expectError(t, "cycle.yaml", "interactions:\n- request:\n    uri: http://x\n    parsed_body: &a [1, *a]\n  response:\n    status: {code: 200}\n", "cycle.yaml:")
	// Aliases used sparingly are fine.
	c, err := Parse("ok.yaml", []byte("version: 1\ninteractions:\n- request:\n    url: &u http://x\n    headers: {A: &v [one]}\n  response: {code: 200, headers: {B: *v}, body: *u}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Interactions[0].Response; got.Header.Get("B") != "one" || string(got.Body) != "http://x" {
		t.Errorf("aliases not followed: %+v", got)
	}
}

func TestHostileDeepAndTagged(t *testing.T) {
	expectError(t, "deep.yaml", strings.Repeat("[", 20000), "deep.yaml: invalid YAML: exceeded max depth of 10000")
	deep := func(n int) string {
		return "interactions:\n- request:\n    uri: x\n    parsed_body: " + strings.Repeat("{a: ", n) + "1" + strings.Repeat("}", n) + "\n  response:\n    status: {code: 200}\n"
	}
	c, err := parseHostile(t, "deep.yaml", []byte(deep(9000)))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(c.Interactions[0].Request.Body); got != strings.Repeat(`{"a":`, 9000)+"1"+strings.Repeat("}", 9000) {
		t.Errorf("deep parsed_body: %.50s…", got)
	}
	expectError(t, "deep.yaml", deep(10001), "exceeded max depth of 10000")

	// Tags are never acted on: unknown ones are plain values, or the reader
	// says what it expected instead.
	c, err = Parse("tags.yaml", []byte(`--- !ruby/object:VCR::Cassette
http_interactions:
- !ruby/hash:ActiveSupport::HashWithIndifferentAccess
  request:
    method: !ruby/sym get
    uri: !!python/str http://x
    body: !!python/object/apply:os.system {string: "echo hi"}
    headers: {}
  response:
    status: {code: !!js/function 200}
    body: {string: !custom hello}
`))
	if err != nil {
		t.Fatal(err)
	}
	in := c.Interactions[0]
	if in.Request.Method != "GET" || in.Request.URL != "http://x" || string(in.Request.Body) != "echo hi" || string(in.Response.Body) != "hello" {
		t.Errorf("tagged values: %+v", in)
	}
	expectError(t, "tags.yaml", "interactions:\n- request:\n    uri: x\n    body: !!python/object/apply:os.system [\"rm -rf /\"]\n  response:\n    status: {code: 200}\n",
		"tags.yaml:4: expected a string or a mapping with `string` for interaction 0 request body, found a sequence")
}

func TestHostileHuge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.yaml")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	// Sparse: no disk or memory is spent on it.
	if err := f.Truncate(MaxSize + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	// Load looks at the size before it reads (no wall-clock bound here: a
	// loaded CI machine makes any such bound flaky).
	_, err = Load(path)
	if err == nil || !strings.Contains(err.Error(), "more than the 256 MiB limit") {
		t.Errorf("huge: %v", err)
	}
}

func TestHostileGzipBomb(t *testing.T) {
	old := maxDecoded
	maxDecoded = 1 << 20
	defer func() { maxDecoded = old }()
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(make([]byte, 2<<20))
	zw.Close()
	doc := "interactions:\n- request:\n    uri: http://x\n  response:\n    headers: {Content-Encoding: [gzip]}\n    body: {string: !!binary " +
		base64.StdEncoding.EncodeToString(gz.Bytes()) + "}\n    status: {code: 200}\n"
	expectError(t, "bomb.yaml", doc, "bomb.yaml: interaction 0 response body: decompressed bodies are larger than the size limit")
	// A body that claims gzip but is not stays as it is.
	c, err := Parse("fake.yaml", []byte("interactions:\n- request:\n    uri: http://x\n  response:\n    headers: {Content-Encoding: [gzip]}\n    body: {string: !!binary H4sIAAAA}\n    status: {code: 200}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Interactions[0].Response.Body; !bytes.Equal(got, []byte{0x1f, 0x8b, 0x08, 0, 0, 0}) {
		t.Errorf("broken gzip body changed: %x", got)
	}
}

// A gzip bomb, as a whole recording file and as a body, is refused having
// allocated next to nothing, whatever the limit: inflating into a growing
// buffer would take up to about twice the limit, as the buffer doubles.
// The limits are lowered to 32 MiB to keep the test fast under -race.
func TestGzipBombBoundedMemory(t *testing.T) {
	oldFile, oldBody := maxInflatedFile, maxDecoded
	maxInflatedFile, maxDecoded = 32<<20, 32<<20
	defer func() { maxInflatedFile, maxDecoded = oldFile, oldBody }()
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zero := make([]byte, 1<<20)
	for range 40 { // 40 MiB of zeros, over the limit
		zw.Write(zero)
	}
	zw.Close()
	body := "interactions:\n- request:\n    uri: http://x\n  response:\n    headers: {Content-Encoding: [gzip]}\n    body: {string: !!binary " +
		base64.StdEncoding.EncodeToString(gz.Bytes()) + "}\n    status: {code: 200}\n"
	for name, data := range map[string][]byte{"bomb.yaml.gz": gz.Bytes(), "bomb-body.yaml": []byte(body)} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := Parse(name, data)
		runtime.ReadMemStats(&after)
		if err == nil {
			t.Fatalf("%s: a bomb loaded", name)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
			t.Errorf("%s: refusing a %d KiB bomb allocated %d MiB", name, gz.Len()>>10, grew>>20)
		}
	}
}
