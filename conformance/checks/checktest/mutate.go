package checktest

import (
	"bytes"
	"testing"

	"github.com/tidwall/sjson"

	"github.com/llmtck/llmtck/cassette"
)

// The single mutations fixtures are made with. Each fails the test when its
// target is not where the spec says, so a fixture never silently stops
// being the mutation it claims to be.

// ReplaceOnce replaces the only occurrence of old in interaction i's body
// on side "request" or "response".
func ReplaceOnce(t *testing.T, c *cassette.Cassette, i int, side, old, new string) {
	t.Helper()
	body := Body(t, c, i, side)
	if n := bytes.Count(*body, []byte(old)); n != 1 {
		t.Fatalf("interaction %d %s: %q occurs %d times, want exactly once", i, side, old, n)
	}
	*body = bytes.Replace(*body, []byte(old), []byte(new), 1)
}

// SetJSON sets the value at a gjson/sjson path (e.g. "messages.1.content.0.signature")
// of interaction i's request body to raw JSON, keeping every other byte.
func SetJSON(t *testing.T, c *cassette.Cassette, i int, jsonPath, raw string) {
	t.Helper()
	body := Body(t, c, i, "request")
	out, err := sjson.SetRawBytes(*body, jsonPath, []byte(raw))
	if err != nil {
		t.Fatalf("interaction %d: set %s: %v", i, jsonPath, err)
	}
	*body = out
}

// DeleteJSON removes the value at a path of interaction i's request body.
func DeleteJSON(t *testing.T, c *cassette.Cassette, i int, jsonPath string) {
	t.Helper()
	body := Body(t, c, i, "request")
	out, err := sjson.DeleteBytes(*body, jsonPath)
	if err != nil || bytes.Equal(out, *body) {
		t.Fatalf("interaction %d: delete %s: nothing removed (%v)", i, jsonPath, err)
	}
	*body = out
}

// TruncateAt cuts interaction i's response body just before the only
// occurrence of marker, as a dropped connection would.
func TruncateAt(t *testing.T, c *cassette.Cassette, i int, marker string) {
	t.Helper()
	body := Body(t, c, i, "response")
	if n := bytes.Count(*body, []byte(marker)); n != 1 {
		t.Fatalf("interaction %d: %q occurs %d times, want exactly once", i, marker, n)
	}
	*body = (*body)[:bytes.Index(*body, []byte(marker))]
}

// Body is interaction i's body on side "request" or "response", to edit.
func Body(t *testing.T, c *cassette.Cassette, i int, side string) *[]byte {
	t.Helper()
	if i >= len(c.Interactions) {
		t.Fatalf("no interaction %d", i)
	}
	switch side {
	case "request":
		return &c.Interactions[i].Request.Body
	case "response":
		return &c.Interactions[i].Response.Body
	}
	t.Fatalf("side %q", side)
	return nil
}
