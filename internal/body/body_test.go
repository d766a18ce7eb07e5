package body

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestSniff(t *testing.T) {
	cases := []struct {
		body string
		want Form
	}{
		{"", Empty},
		{" \n\t", Empty},
		{"data: {}\n\n", EventStream},
		{": OPENROUTER PROCESSING\n\ndata: {}\n\n", EventStream},
		{`{"a":1}`, Document},
		{"[1,2]", Document},
		{"{\"type\":\"a\"}\n{\"type\":\"b\"}\n", JSONLines},
		{"{\"type\":\"a\"}\nnot json\n", JSONLines},
		{"{\"a\":\n1}\n", Document},
		{`{"a":[`, BadJSON},
		{"[1,", BadJSON},
		{"hello", Text},
		{"<html>502</html>", Text},
		{"\x1f\x8b\x08\x00", Binary},
		{"a\x00b", Binary},
	}
	for _, c := range cases {
		if got := Sniff([]byte(c.body)); got != c.want {
			t.Errorf("Sniff(%q) = %d, want %d", c.body, got, c.want)
		}
	}
}

func TestLines(t *testing.T) {
	b := []byte("  {\"n\":1}\n\n{\"n\":2}\n{\"n\":3")
	lines := Lines(b)
	if len(lines) != 3 {
		t.Fatalf("Lines = %d lines, want 3", len(lines))
	}
	for i, l := range lines {
		if !bytes.Equal(b[l.Offset:l.Offset+len(l.Data)], l.Data) {
			t.Errorf("line %d: offset %d does not point at %q", i, l.Offset, l.Data)
		}
	}
	if lines[0].Offset != 2 || lines[0].Cut || !lines[2].Cut {
		t.Errorf("offsets and cuts: %+v", lines)
	}
	if Lines([]byte("prose\n{\"a\":1}\n")) != nil {
		t.Error("a body whose first line is not a JSON object is not JSON lines")
	}
}

func TestObject(t *testing.T) {
	for body, want := range map[string]string{
		"":        "empty",
		"{":       "invalid JSON at byte 1: unexpected end of JSON input",
		"[]":      "expected a JSON object, found an array",
		"3":       "expected a JSON object, found a number",
		`{"a":1}`: "",
	} {
		err := Object([]byte(body))
		if got := errString(err); got != want {
			t.Errorf("Object(%q) = %q, want %q", body, got, want)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// FuzzSniff: sniffing never panics, a Document is valid JSON, and JSON
// lines start with an object whose offsets point into the body.
func FuzzSniff(f *testing.F) {
	for _, s := range []string{"", "data: x\n\n", "{}", "{\"a\":1}\n{\"b\":2}", "[1,", "hi", "\xff"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		switch Sniff(b) {
		case Document:
			if !json.Valid(bytes.TrimSpace(b)) {
				t.Errorf("Document that is not JSON: %q", b)
			}
		case JSONLines:
			for _, l := range Lines(b) {
				if l.Offset < 0 || l.Offset+len(l.Data) > len(b) || !bytes.Equal(b[l.Offset:l.Offset+len(l.Data)], l.Data) {
					t.Errorf("line %+v does not point into %q", l, b)
				}
			}
		}
		_ = Unreadable(b, Sniff(b))
	})
}
