package cassette

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	gvcr "github.com/dnaeon/go-vcr/v2/cassette"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/llmtck/llmtck/internal/corpus"
	"gopkg.in/yaml.v3"
)

// manifestEntry is one corpus file's row in MANIFEST.tsv.
type manifestEntry struct {
	format       string
	interactions int
}

// manifest reads MANIFEST.tsv: local_file → format and interaction count
// ("1 (response only)" counts as 1).
func manifest(t *testing.T) map[string]manifestEntry {
	t.Helper()
	return setManifest(t, corpus.Dev)
}

// setManifest reads the MANIFEST.tsv of one corpus set.
func setManifest(t *testing.T, set string) map[string]manifestEntry {
	t.Helper()
	f, err := os.Open(filepath.Join(corpus.SetDir(t, set), "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	var cols map[string]int
	out := map[string]manifestEntry{}
	for sc.Scan() {
		row := strings.Split(sc.Text(), "\t")
		if cols == nil {
			cols = map[string]int{}
			for i, c := range row {
				cols[c] = i
			}
			continue
		}
		n, err := strconv.Atoi(strings.Fields(row[cols["interactions"]])[0])
		if err != nil {
			t.Fatalf("MANIFEST.tsv: interactions %q: %v", row[cols["interactions"]], err)
		}
		out[row[cols["local_file"]]] = manifestEntry{format: row[cols["format"]], interactions: n}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// manifestFormat maps MANIFEST.tsv's format column to ours.
func manifestFormat(s string) Format {
	switch {
	case strings.Contains(s, "requests:/responses: lists"):
		return FormatVCRLists
	case strings.HasPrefix(s, "httpmock"):
		return FormatHTTPMock
	case strings.HasPrefix(s, "vcrpy"):
		return FormatVCRPy
	case strings.Contains(s, `"version: 2"`):
		return FormatGoVCRv2
	case strings.HasPrefix(s, "httprr"):
		return FormatHTTPRR
	case strings.HasPrefix(s, "json-fixture"):
		return FormatJSONL
	}
	return Format("unknown: " + s)
}

// written is what Encode promises to write for in: everything, minus the
// Content-Encoding and Content-Length headers the decoded body no longer
// matches.
func written(in *Interaction) *Interaction {
	out := *in
	out.Request.Header = keptHeaders(in.Request.Header, in.Request.Body)
	out.Response.Header = keptHeaders(in.Response.Header, in.Response.Body)
	if out.Response.StatusText == "" {
		out.Response.StatusText = statusText(in.Response.Status, "")
	}
	return &out
}

func keptHeaders(h http.Header, body []byte) http.Header {
	out := http.Header{}
	for k, v := range h {
		if keepHeader(k, h, body) {
			out[k] = v
		}
	}
	return out
}

func writtenAll(ins []*Interaction) []*Interaction {
	out := make([]*Interaction, len(ins))
	for i, in := range ins {
		out[i] = written(in)
	}
	return out
}

// loadWithGoVCR writes data to a file and loads it with stock go-vcr v2.1.0.
func loadWithGoVCR(t *testing.T, data []byte) *gvcr.Cassette {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "c.yaml"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := gvcr.Load(filepath.Join(dir, "c"))
	if err != nil {
		t.Fatalf("go-vcr v2.1.0 cannot load our cassette: %v", err)
	}
	return c
}

// checkGoVCR compares what go-vcr loaded with what we meant to write, byte
// for byte.
func checkGoVCR(t *testing.T, want []*Interaction, got *gvcr.Cassette) {
	t.Helper()
	if got.Version != 1 {
		t.Errorf("go-vcr version = %d, want 1", got.Version)
	}
	if len(got.Interactions) != len(want) {
		t.Fatalf("go-vcr loaded %d interactions, want %d", len(got.Interactions), len(want))
	}
	eq := cmpopts.EquateEmpty()
	for i, w := range writtenAll(want) {
		g := got.Interactions[i]
		if g.Request.Method != w.Request.Method || g.Request.URL != w.Request.URL {
			t.Errorf("interaction %d: go-vcr request %s %s, want %s %s", i, g.Request.Method, g.Request.URL, w.Request.Method, w.Request.URL)
		}
		if d := diffBytes(w.Request.Body, []byte(g.Request.Body), true); d != "" {
			t.Errorf("interaction %d: go-vcr request body %s", i, d)
		}
		if d := cmp.Diff(w.Request.Header, g.Request.Headers, eq); d != "" {
			t.Errorf("interaction %d: request headers differ (-want +go-vcr):\n%s", i, d)
		}
		if g.Response.Code != w.Response.Status || g.Response.Status != w.Response.StatusText {
			t.Errorf("interaction %d: go-vcr status %d %q, want %d %q", i, g.Response.Code, g.Response.Status, w.Response.Status, w.Response.StatusText)
		}
		if d := diffBytes(w.Response.Body, []byte(g.Response.Body), true); d != "" {
			t.Errorf("interaction %d: go-vcr response body %s", i, d)
		}
		if d := cmp.Diff(w.Response.Header, g.Response.Headers, eq); d != "" {
			t.Errorf("interaction %d: response headers differ (-want +go-vcr):\n%s", i, d)
		}
		if g.Response.Duration != w.Response.Duration {
			t.Errorf("interaction %d: go-vcr duration %v, want %v", i, g.Response.Duration, w.Response.Duration)
		}
	}
}

// diffInteractions describes the first differences between a and b, or is
// "" when they hold the same data. nil and empty are alike only when loose is
// set. (go-cmp is far too slow on 700 KB bodies.)
func diffInteractions(a, b []*Interaction, loose bool) string {
	if len(a) != len(b) {
		return fmt.Sprintf("%d interactions vs %d", len(a), len(b))
	}
	var diffs []string
	add := func(i int, what string, x, y any) {
		diffs = append(diffs, fmt.Sprintf("interaction %d %s: %v vs %v", i, what, x, y))
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Request.Method != y.Request.Method || x.Request.URL != y.Request.URL {
			add(i, "request line", x.Request.Method+" "+x.Request.URL, y.Request.Method+" "+y.Request.URL)
		}
		if d := diffHeaders(x.Request.Header, y.Request.Header, loose); d != "" {
			add(i, "request headers", d, "")
		}
		if d := diffBytes(x.Request.Body, y.Request.Body, loose); d != "" {
			add(i, "request body", d, "")
		}
		if x.Response.Status != y.Response.Status || x.Response.StatusText != y.Response.StatusText {
			add(i, "status", fmt.Sprintf("%d %q", x.Response.Status, x.Response.StatusText), fmt.Sprintf("%d %q", y.Response.Status, y.Response.StatusText))
		}
		if d := diffHeaders(x.Response.Header, y.Response.Header, loose); d != "" {
			add(i, "response headers", d, "")
		}
		if d := diffBytes(x.Response.Body, y.Response.Body, loose); d != "" {
			add(i, "response body", d, "")
		}
		if x.Response.Duration != y.Response.Duration {
			add(i, "duration", x.Response.Duration, y.Response.Duration)
		}
		xo, yo := x.Response.EventOffsets, y.Response.EventOffsets
		if !slices.Equal(xo, yo) || !loose && (xo == nil) != (yo == nil) {
			add(i, "event offsets", xo, yo)
		}
	}
	if len(diffs) > 5 {
		diffs = append(diffs[:5], "…")
	}
	return strings.Join(diffs, "\n")
}

func diffBytes(x, y []byte, loose bool) string {
	if bytes.Equal(x, y) && (loose || (x == nil) == (y == nil)) {
		return ""
	}
	i := 0
	for i < len(x) && i < len(y) && x[i] == y[i] {
		i++
	}
	return fmt.Sprintf("differ at byte %d of %d/%d: %.40q vs %.40q (nil %v/%v)", i, len(x), len(y), x[i:], y[i:], x == nil, y == nil)
}

func diffHeaders(x, y http.Header, loose bool) string {
	if !loose && (x == nil) != (y == nil) {
		return fmt.Sprintf("nil %v vs %v", x == nil, y == nil)
	}
	keys := map[string]bool{}
	for k := range x {
		keys[k] = true
	}
	for k := range y {
		keys[k] = true
	}
	for k := range keys {
		xv, xok := x[k]
		yv, yok := y[k]
		if !slices.Equal(xv, yv) || !loose && (xok != yok || (xv == nil) != (yv == nil)) {
			return fmt.Sprintf("%s: %q vs %q", k, xv, yv)
		}
	}
	return ""
}

// roundTrip encodes c, checks that stock go-vcr v2.1.0's cassette.Load
// reads it with every byte in place, and that both of our readers give back
// the same interactions.
func roundTrip(t *testing.T, c *Cassette) []byte {
	t.Helper()
	data := encoded(t, c)
	checkGoVCR(t, c.Interactions, loadWithGoVCR(t, data))
	checkReaders(t, c, data)
	return data
}

// roundTripInMemory is roundTrip for fuzzing: the same yaml.v3 call that
// cassette.Load makes, without a file per input.
func roundTripInMemory(t *testing.T, c *Cassette) {
	t.Helper()
	data := encoded(t, c)
	g := gvcr.New("fuzz")
	if err := yaml.Unmarshal(data, &g); err != nil {
		t.Fatalf("go-vcr's yaml.v3 decoding fails on our cassette: %v\n%q", err, data)
	}
	checkGoVCR(t, c.Interactions, g)
	checkReaders(t, c, data)
}

func checkReaders(t *testing.T, c *Cassette, data []byte) {
	t.Helper()
	fast, eph, ok := parseFast(data)
	if !ok {
		t.Fatalf("the fast reader does not accept what Encode wrote")
	}
	fc, err := finishFast("x", fast, eph)
	if err != nil {
		t.Fatal(err)
	}
	slow, err := parseSlow("x", data)
	if err != nil {
		t.Fatalf("yaml.v3 path: %v", err)
	}
	if slow.Format != FormatGoVCRv1 {
		t.Errorf("our own output detected as %s", slow.Format)
	}
	if d := diffInteractions(fc.Interactions, slow.Interactions, false); d != "" {
		t.Fatalf("fast and yaml.v3 readers differ (fast vs yaml):\n%s", d)
	}
	if d := diffInteractions(writtenAll(c.Interactions), fc.Interactions, true); d != "" {
		t.Fatalf("Parse(Encode(c)) differs from c (want vs got):\n%s", d)
	}
	if !slices.Equal(fc.Ephemeral, slow.Ephemeral) || !slices.Equal(fc.Ephemeral, c.Ephemeral) {
		t.Fatalf("%s: wrote %q, the fast reader read %q, yaml.v3 %q", ephemeralKey, c.Ephemeral, fc.Ephemeral, slow.Ephemeral)
	}
}

// checkOneLineError holds an error to the house rule: an *Error naming the
// file, on one line.
func checkOneLineError(t *testing.T, err error, file string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%T is not *Error: %v", err, err)
	}
	msg := err.Error()
	if e.File != file || !strings.HasPrefix(msg, file+":") {
		t.Errorf("error does not name %s: %q", file, msg)
	}
	if strings.ContainsAny(msg, "\n\r") || e.Msg == "" {
		t.Errorf("error is not one line: %q", msg)
	}
}
