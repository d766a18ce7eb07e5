package diff

import (
	"strings"
	"testing"
)

func TestByteDiff(t *testing.T) {
	if d := Bytes([]byte("same"), []byte("same")); d != "" {
		t.Errorf("equal inputs: %q", d)
	}
	d := Bytes([]byte("0123456789abcdefghijklmnopqrstuvwxyz0123456789"), []byte("0123456789abcdefghijKlmnopqrstuvwxyz0123456789"))
	for _, want := range []string{"first difference at byte 20", `-want: …"456789abcdefghijklmnopqrstuvwxyz"…`, `+got:  …"456789abcdefghijKlmnopqrstuvwxyz"…`} {
		if !strings.Contains(d, want) {
			t.Errorf("diff lacks %q:\n%s", want, d)
		}
	}
	if d := Bytes([]byte("abc"), []byte("abcd")); !strings.Contains(d, "byte 3 (want 3 bytes, got 4)") {
		t.Errorf("length diff: %s", d)
	}
}

// A JSON diff names fields as the wire does and marks the lines that
// differ; equal values give "".
func TestJSON(t *testing.T) {
	type item struct {
		Type   string `json:"type"`
		CallID string `json:"call_id,omitempty"`
	}
	got := JSON(item{"function_call", "call_1"}, item{"message", ""})
	want := "mismatch (-want +got):\n  {\n-   \"type\": \"function_call\",\n-   \"call_id\": \"call_1\"\n+   \"type\": \"message\"\n  }\n"
	if got != want {
		t.Errorf("JSON =\n%s\nwant\n%s", got, want)
	}
	if d := JSON(item{"a", "b"}, item{"a", "b"}); d != "" {
		t.Errorf("equal values: %q", d)
	}
	if strings.Contains(got, "diff.item") {
		t.Error("the diff names the Go type")
	}
}
