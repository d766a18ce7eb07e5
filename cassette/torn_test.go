package cassette

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// tornCassette is three interactions in llmtck's layout, the last with a
// body larger than the recorder keeps in memory (it is copied from a spill
// file in pieces, so a kill can cut it anywhere).
func tornCassette(t testing.TB) ([]byte, int) {
	c := &Cassette{}
	for i, size := range []int{10, 20, 5 << 20} {
		c.Interactions = append(c.Interactions, &Interaction{
			Request: Request{Method: "POST", URL: "https://api.anthropic.com/v1/messages", Header: http.Header{"Content-Type": {"application/json"}},
				Body: []byte(fmt.Sprintf(`{"n":%d}`, i))},
			Response: Response{Status: 200, StatusText: "200 OK", Header: http.Header{"Content-Type": {"application/json"}},
				Body: []byte(`{"text":"` + strings.Repeat("x", size) + `"}`)},
		})
	}
	var buf bytes.Buffer
	if err := c.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	return data, bytes.LastIndex(data, interactionStart) + 1
}

// Cut anywhere in its last interaction before the response code, a
// cassette of llmtck's layout reads as the interactions before it, saying
// how many bytes were left out. (Cut after the code, the interaction is
// whole but for its duration, and reads as it is.)
func TestTornTailIsSalvaged(t *testing.T) {
	data, last := tornCassette(t)
	status := bytes.LastIndex(data, []byte("    status: 200 OK\n"))
	for _, cut := range []int{last + 1, last + 2, last + 12, last + 100, last + 1000, last + (len(data)-last)/2, status} {
		c, err := Parse("torn.yaml", data[:cut])
		if err != nil {
			t.Fatalf("cut at %d of %d: %v", cut, len(data), err)
		}
		if len(c.Interactions) != 2 || c.Torn != int64(cut-last) {
			t.Errorf("cut at %d: %d interactions, torn %d; want 2 and %d", cut, len(c.Interactions), c.Torn, cut-last)
		}
	}
	code := bytes.LastIndex(data, []byte("    code: 200\n"))
	for _, cut := range []int{code + 14, len(data)} {
		if c, err := Parse("whole.yaml", data[:cut]); err != nil || c.Torn != 0 || len(c.Interactions) != 3 {
			t.Errorf("cut at %d of %d, after the code: %v", cut, len(data), err)
		}
	}
	// Another tool's file that does not load is not guessed at.
	if _, err := Parse("other.yaml", []byte("version: 1\ninteractions:\n- request: [\n")); err == nil {
		t.Error("a broken file that is not a torn llmtck cassette loaded")
	}
}

// A cassette whose last interaction is still marked Busy (a recorder killed
// while it streamed the body in place) reads, cut anywhere after the mark,
// as the interactions before it, with the rest counted as torn; go-vcr's
// YAML reader stops at the mark too. With the item's start written back
// over the mark, it reads whole.
func TestBusyTailIsTorn(t *testing.T) {
	data, last := tornCassette(t)
	busy := append(append(bytes.Clone(data[:last]), Busy...), data[last+len("- request:\n"):]...)
	for _, cut := range []int{last + len(Busy), last + len(Busy) + 1, last + 100, last + (len(data)-last)/2, len(data)} {
		c, err := Parse("busy.yaml", busy[:cut])
		if err != nil {
			t.Fatalf("cut at %d of %d: %v", cut, len(busy), err)
		}
		if len(c.Interactions) != 2 || c.Torn != int64(cut-last) {
			t.Errorf("cut at %d: %d interactions, torn %d; want 2 and %d", cut, len(c.Interactions), c.Torn, cut-last)
		}
	}
	var doc struct {
		Interactions []map[string]any `yaml:"interactions"`
	}
	if err := yaml.Unmarshal(busy[:last+(len(data)-last)/2], &doc); err != nil || len(doc.Interactions) != 2 {
		t.Errorf("yaml.v3 read %d interactions (%v), want the 2 before the mark", len(doc.Interactions), err)
	}
	if c, err := Parse("whole.yaml", data); err != nil || c.Torn != 0 || len(c.Interactions) != 3 {
		t.Errorf("with the mark written over: %v", err)
	}
	// Only the header before the mark: no interactions, all of it torn.
	head := []byte(header + Busy + "    body: '{}'\n")
	if c, err := Parse("first.yaml", head); err != nil || len(c.Interactions) != 0 || c.Torn != int64(len(Busy)+15) {
		t.Errorf("a first interaction marked busy: %+v, %v", c, err)
	}
}
