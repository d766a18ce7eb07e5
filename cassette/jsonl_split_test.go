package cassette

import (
	"strings"
	"testing"
)

func TestJSONLSplitsBackToBackStreams(t *testing.T) {
	data := strings.Join([]string{
		`{"type":"response.created","sequence_number":0}`,
		`{"type":"response.completed","sequence_number":1}`,
		`{"type":"response.created","sequence_number":0}`,
		`{"type":"response.failed","sequence_number":1}`,
		`{"type":"message_start"}`,
		`{"type":"message_stop"}`,
	}, "\n")
	c, err := Parse("steps.chunks.txt", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Interactions) != 3 {
		t.Fatalf("%d interactions, want 3 (one per stream)", len(c.Interactions))
	}
	if b := string(c.Interactions[1].Response.Body); !strings.HasPrefix(b, "event: response.created\n") || !strings.Contains(b, "response.failed") {
		t.Errorf("second stream body:\n%s", b)
	}
	// Gemini and chat chunks carry no opener: one stream, one interaction.
	c, err = Parse("g.chunks.txt", []byte("{\"candidates\":[]}\n{\"candidates\":[]}\n"))
	if err != nil || len(c.Interactions) != 1 {
		t.Fatalf("got %v interactions, err %v; want 1", len(c.Interactions), err)
	}
}
