// Package body tells what a recorded HTTP body holds — a JSON document, an
// event stream, JSON lines, text or binary data — from its content alone,
// since recordings often lose their headers, and says in one set of texts
// why a body is not what a codec expects.
package body

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/internal/sse"
)

// Form is what a body holds.
type Form int

const (
	// Empty is a body of nothing but white space.
	Empty Form = iota
	// EventStream is a text/event-stream (SSE) body.
	EventStream
	// Document is one valid JSON value.
	Document
	// JSONLines is one JSON value per line, the first of them an object (a
	// stream saved without its SSE framing, as fixtures do). Later lines
	// that are not JSON are for the codec to report.
	JSONLines
	// BadJSON starts like a JSON object or array and is not valid JSON: a
	// body cut short, or mangled.
	BadJSON
	// Text is UTF-8 that is none of the above (an HTML error page, plain text).
	Text
	// Binary is data that is not UTF-8 text.
	Binary
)

// Sniff tells a body's form from its content.
func Sniff(b []byte) Form {
	trimmed := bytes.TrimSpace(b)
	switch {
	case len(trimmed) == 0:
		return Empty
	case sse.Looks(b):
		return EventStream
	case rawjson.Valid(trimmed):
		return Document
	case len(Lines(b)) > 1:
		return JSONLines
	case !utf8.Valid(trimmed) || bytes.IndexByte(trimmed, 0) >= 0:
		return Binary
	case trimmed[0] == '{' || trimmed[0] == '[':
		return BadJSON
	}
	return Text
}

// Line is one non-blank line of a JSON-lines body.
type Line struct {
	Data   []byte // the line without surrounding white space
	No     int    // its line number, from 1
	Offset int    // where Data starts in the body
	End    int    // where the line ends, before its newline
	// Cut is true for a last line the body ended inside (no newline).
	Cut bool
}

// Split cuts a body into its non-blank lines: the one JSON-lines splitter.
func Split(b []byte) []Line {
	var out []Line
	no := 0
	for pos := 0; pos < len(b); {
		no++
		end := bytes.IndexByte(b[pos:], '\n')
		next := pos + end + 1
		if end < 0 {
			end, next = len(b)-pos, len(b)
		}
		raw := b[pos : pos+end]
		if line := bytes.TrimSpace(raw); len(line) > 0 {
			out = append(out, Line{Data: line, No: no, Offset: pos + bytes.Index(raw, line), End: pos + end,
				Cut: next == len(b) && b[len(b)-1] != '\n'})
		}
		pos = next
	}
	return out
}

// Lines splits a JSON-lines body into its non-blank lines. It returns nil
// unless the first of them is a JSON object: a body of prose is not a
// stream.
func Lines(b []byte) []Line {
	lines := Split(b)
	if len(lines) == 0 || lines[0].Data[0] != '{' || !rawjson.Valid(lines[0].Data) {
		return nil
	}
	return lines
}

// ErrEmpty is the error for a body of nothing.
var ErrEmpty = errors.New("empty")

// Object checks that b is one JSON object and says what it is instead:
// empty, invalid JSON at a byte offset, or another JSON type.
func Object(b []byte) error {
	trimmed := bytes.TrimSpace(b)
	if len(trimmed) == 0 {
		return ErrEmpty
	}
	if err := JSON(trimmed); err != nil {
		return err
	}
	if k := rawjson.Kind(trimmed); k != "object" {
		return fmt.Errorf("expected a JSON object, found %s", rawjson.Describe(trimmed))
	}
	return nil
}

// JSON checks that b is valid JSON, naming the byte where it stops being so.
func JSON(b []byte) error {
	if rawjson.Valid(b) {
		return nil
	}
	var syn *json.SyntaxError
	if errors.As(json.Unmarshal(b, new(json.RawMessage)), &syn) {
		return fmt.Errorf("invalid JSON at byte %d: %v", syn.Offset, syn)
	}
	return errors.New("invalid JSON")
}

// Unreadable says why a response body of form f (Empty, BadJSON, Text or
// Binary) is neither a JSON document nor an event stream.
func Unreadable(b []byte, f Form) error {
	trimmed := bytes.TrimSpace(b)
	switch f {
	case Empty:
		return ErrEmpty
	case BadJSON:
		return JSON(trimmed)
	case Binary:
		return fmt.Errorf("binary data (%d bytes), neither JSON nor an event stream", len(b))
	}
	return fmt.Errorf("neither JSON nor an event stream: starts with %q", Excerpt(trimmed, 40))
}

// Excerpt is the first line of b, at most n bytes cut at a rune boundary
// and marked "…" when cut there.
func Excerpt(b []byte, n int) string {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	if len(b) <= n {
		return string(bytes.TrimSpace(b))
	}
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return string(bytes.TrimSpace(b[:n])) + "…"
}

// UTF8 is nil for valid UTF-8, else an error naming the first bad byte:
// JSON cannot carry such bytes back unchanged.
func UTF8(b []byte) error {
	if utf8.Valid(b) {
		return nil
	}
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return fmt.Errorf("invalid UTF-8 at byte %d", i)
		}
		i += n
	}
	return nil
}
