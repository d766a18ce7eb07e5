package cassette

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/llmtck/llmtck/internal/corpus"
	"github.com/llmtck/llmtck/internal/rawjson"
)

// seeds returns every corpus file and every testdata file up to 256 KiB
// (larger ones make each of the fuzzer's runs slow and teach it nothing
// the small ones do not), plus a few small inputs that sit on format
// boundaries.
func seeds(f *testing.F) [][]byte {
	f.Helper()
	var out [][]byte
	paths := append(corpus.Files(f), corpus.SetFiles(f, corpus.Wave2)...)
	more, _ := filepath.Glob("testdata/*")
	golden, _ := filepath.Glob("testdata/golden/*")
	for _, p := range append(append(paths, more...), golden...) {
		data, err := os.ReadFile(p)
		if err == nil && len(data) <= 256<<10 {
			out = append(out, data)
		}
	}
	for _, s := range []string{
		"", "httprr trace v1\n", "httprr trace v1\n0 0\n", "{}", "{\"log\":{}}", "[]", "---\n", header,
		"---\nversion: 1\ninteractions:\n- request:\n    body: |2-\n\n      x\n    headers: {}\n    url: ''\n    method: ''\n  response:\n    body: ''\n    headers: {}\n    status: ''\n    code: 0\n    duration: 0s\n",
		"interactions:\n- request: {uri: x, parsed_body: {a: &x [1], b: *x}}\n  response: {status: {code: 200}}\n",
		"when:\n  path: /v1/x\n  method: POST\nthen:\n  status: 200\n  body: aGk=\n  body_encoding: base64\n---\nwhen: {}\nthen: {status: 500}\n",
		"requests:\n- {uri: 'https://h/x', method: POST}\nresponses:\n- {status: {code: 200}, body: {string: ok}}\n",
		`[{"scope":"https://a:443","method":"POST","path":"/x","status":200,"response":["1f8b"],"rawHeaders":["Content-Encoding","gzip"]}]`,
	} {
		out = append(out, []byte(s))
	}
	withEph := genCassette(2, 400)
	withEph.Ephemeral = []string{"Reply with JSON only.", "two\nlines", "'quoted' #x", "\xff"}
	out = append(out, []byte(versionLine+ephemeralKey+": []\n"+interactionsKey), []byte("version: 1\ninteractions: []\n"+ephemeralKey+": [a, {b: c}]\n"))
	// A recorder killed while it wrote a stream in place.
	two := encoded(f, genCassette(2, 400))
	last := bytes.LastIndex(two, interactionStart) + 1
	busy := append(append(bytes.Clone(two[:last]), Busy...), two[last+len("- request:\n"):len(two)-40]...)
	return append(out, two, busy, encoded(f, withEph))
}

// checkParsed holds Parse's result to the package's promises: a one-line
// *Error naming the file, or a cassette that round-trips through go-vcr and
// both of our readers.
func checkParsed(t *testing.T, c *Cassette, err error) {
	t.Helper()
	if err != nil {
		checkOneLineError(t, err, "fuzz")
		return
	}
	if !slices.Contains(Formats, c.Format) {
		t.Fatalf("format %q", c.Format)
	}
	if stillEncoded(c) {
		return
	}
	roundTripInMemory(t, c)
}

func FuzzParse(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("fuzz", data)
		checkParsed(t, c, err)
	})
}

// FuzzParseAs drives each reader directly, as `import --from` does.
func FuzzParseAs(f *testing.F) {
	for _, s := range seeds(f) {
		for i := range Formats {
			f.Add(s, uint8(i))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, format uint8) {
		c, err := ParseAs("fuzz", data, Formats[int(format)%len(Formats)])
		checkParsed(t, c, err)
	})
}

// FuzzFastMatchesYAML holds the fast reader to yaml.v3: whatever it
// accepts, the general reader must read the same way.
func FuzzFastMatchesYAML(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s)
	}
	for _, s := range awkward {
		c := &Cassette{Interactions: []*Interaction{{
			Request:  Request{Method: "POST", URL: s, Header: http.Header{"X": {s}}, Body: []byte(s)},
			Response: Response{Status: 200, Body: []byte(s), EventOffsets: []time.Duration{time.Millisecond}},
		}}}
		f.Add(encoded(f, c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ins, eph, ok := parseFast(data)
		if !ok {
			return
		}
		fast, err := finishFast("fuzz", ins, eph)
		if err != nil {
			return
		}
		slow, err := parseSlow("fuzz", data)
		if err != nil {
			t.Fatalf("fast reader accepted what yaml.v3 rejects: %v\n%q", err, data)
		}
		if d := diffInteractions(fast.Interactions, slow.Interactions, false); d != "" {
			t.Fatalf("fast and yaml.v3 readers differ:\n%s\n%q", d, data)
		}
		if !slices.Equal(fast.Ephemeral, slow.Ephemeral) {
			t.Fatalf("fast and yaml.v3 readers differ on %s: %q vs %q\n%q", ephemeralKey, fast.Ephemeral, slow.Ephemeral, data)
		}
	})
}

// FuzzEncode writes arbitrary strings and checks that go-vcr and both of
// our readers get every byte back.
func FuzzEncode(f *testing.F) {
	for i, s := range awkward {
		f.Add("POST", s, "X-"+s, s, []byte(s), 200, int64(i)*1e6, int64(i))
	}
	f.Fuzz(func(t *testing.T, method, url, key, value string, body []byte, status int, dur, offset int64) {
		c := &Cassette{Ephemeral: []string{value, key}, Interactions: []*Interaction{{
			Request: Request{
				Method: method, URL: url,
				Header: http.Header{http.CanonicalHeaderKey(key): {value}},
				Body:   body,
			},
			Response: Response{
				Status: status, StatusText: value,
				Header:       http.Header{"X-Value": {value, key}},
				Body:         body,
				Duration:     time.Duration(dur),
				EventOffsets: []time.Duration{time.Duration(offset), time.Duration(dur)},
			},
		}}}
		if len(body) == 0 {
			c.Interactions[0].Request.Body = nil
			c.Interactions[0].Response.Body = nil
		}
		if stillEncoded(c) {
			return
		}
		roundTripInMemory(t, c)
	})
}

// stillEncoded reports a body that is gzip or deflate data under a matching
// Content-Encoding. The next read decompresses it (once: a .gz served with
// Content-Encoding: gzip stays a .gz), so it does not round-trip unchanged;
// that is by design.
func stillEncoded(c *Cassette) bool {
	for _, in := range c.Interactions {
		for _, h := range []struct {
			header http.Header
			body   []byte
		}{{in.Request.Header, in.Request.Body}, {in.Response.Header, in.Response.Body}} {
			v := h.header.Values("Content-Encoding")
			switch coding(v) {
			case "gzip", "x-gzip", "deflate":
				if encodingMatches(v, h.body) {
					return true
				}
			}
		}
	}
	return false
}

// FuzzJSONString holds our string quoting to rawjson.Quote's.
func FuzzJSONString(f *testing.F) {
	for _, s := range awkward {
		f.Add(s)
	}
	f.Add("\b\f\x01\u2029<>&")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(appendJSONString(nil, s)), string(rawjson.Quote(s)); got != want {
			t.Fatalf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
	})
}

// FuzzEncodeV4 holds the go-vcr v4 writer to the readers: whatever any
// reader accepts, written in v4's layout, reads back as the same calls.
func FuzzEncodeV4(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("fuzz", data)
		if err != nil || stillEncoded(c) {
			return
		}
		v4, err := EncodeV4(c)
		if err != nil {
			t.Fatalf("EncodeV4 of a cassette that was read: %v", err)
		}
		back, err := Parse("fuzz-v4", v4)
		if err != nil {
			t.Fatalf("the v4 cassette does not read: %v\n%s", err, v4)
		}
		if back.Format != FormatGoVCRv2 || len(back.Interactions) != len(c.Interactions) {
			t.Fatalf("read back as %s with %d interactions, want %s with %d", back.Format, len(back.Interactions), FormatGoVCRv2, len(c.Interactions))
		}
		for i, in := range c.Interactions {
			got := back.Interactions[i]
			if got.Request.Method != in.Request.Method || got.Request.URL != in.Request.URL || string(got.Request.Body) != string(in.Request.Body) || string(got.Response.Body) != string(in.Response.Body) || got.Response.Status != in.Response.Status {
				t.Fatalf("interaction %d changed on the way through v4", i)
			}
		}
	})
}
