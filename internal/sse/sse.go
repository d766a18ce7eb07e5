// Package sse reads and writes text/event-stream bodies without losing the
// position or bytes of any event.
package sse

import (
	"bytes"
	"strings"
)

// Event is one dispatched server-sent event.
type Event struct {
	Event string // the "event:" field; "" when absent
	Data  string // "data:" lines joined with "\n"
	ID    string
	// Offset is the byte offset in the body where the event's first line starts.
	Offset int
	// End is the byte offset just past the event's terminating blank line (or
	// the end of the body for an unterminated event).
	End int
	// Unterminated is true for a final event that the body ended inside,
	// before its blank line: the sign of a cut-off stream.
	Unterminated bool
}

// Parse splits body into events. Comment lines (":…") and unknown fields are
// skipped. Line endings may be \n, \r\n or \r. A final event without its blank
// line is returned with Unterminated set, so callers can tell a stream that was
// cut off from one that ended cleanly. Parse never fails.
func Parse(body []byte) []Event {
	var (
		events  []Event
		cur     Event
		data    strings.Builder
		hasData bool
		started bool // some field of cur seen
	)
	flush := func(end int, unterminated bool) {
		if started && (hasData || cur.Event != "") {
			cur.Data = data.String()
			cur.End = end
			cur.Unterminated = unterminated
			events = append(events, cur)
		}
		cur, hasData, started = Event{}, false, false
		data.Reset()
	}
	pos := 0
	for pos < len(body) {
		lineEnd, next := lineBounds(body, pos)
		line := body[pos:lineEnd]
		if len(line) == 0 {
			if lineEnd == len(body) { // no terminator: not a blank line
				break
			}
			flush(next, false)
			pos = next
			continue
		}
		if line[0] == ':' { // comment
			pos = next
			continue
		}
		if !started {
			cur.Offset = pos
			started = true
		}
		field, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			field, value = line[:i], line[i+1:]
			if len(value) > 0 && value[0] == ' ' {
				value = value[1:]
			}
		}
		switch string(field) {
		case "event":
			cur.Event = string(value)
		case "data":
			if hasData {
				data.WriteByte('\n')
			}
			data.Write(value)
			hasData = true
		case "id":
			cur.ID = string(value)
		}
		pos = next
	}
	flush(len(body), true)
	return events
}

// lineBounds returns the end of the line starting at pos (exclusive of its
// terminator) and the start of the next line.
func lineBounds(body []byte, pos int) (end, next int) {
	for i := pos; i < len(body); i++ {
		switch body[i] {
		case '\n':
			return i, i + 1
		case '\r':
			if i+1 < len(body) && body[i+1] == '\n' {
				return i, i + 2
			}
			return i, i + 1
		}
	}
	return len(body), len(body)
}

// Looks reports whether body looks like an event stream: its first
// non-blank line is an SSE field or comment. Used when headers are missing.
func Looks(body []byte) bool {
	b := bytes.TrimLeft(body, " \t\r\n")
	for _, p := range []string{"data:", "event:", "id:", "retry:", ":"} {
		if bytes.HasPrefix(b, []byte(p)) {
			return true
		}
	}
	return false
}

// Write appends one event in wire form to dst.
func Write(dst []byte, event, data string) []byte {
	if event != "" {
		dst = append(dst, "event: "...)
		dst = append(dst, event...)
		dst = append(dst, '\n')
	}
	for _, line := range strings.Split(data, "\n") {
		dst = append(dst, "data: "...)
		dst = append(dst, line...)
		dst = append(dst, '\n')
	}
	return append(dst, '\n')
}
