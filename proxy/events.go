package proxy

import (
	"bytes"
	"time"
)

// eventClock notes when each server-sent event of a streamed body arrives,
// as the bytes go by, without keeping the body. It splits events exactly as
// sse.Parse does (blank line after a data or non-empty event field; \n,
// \r\n or \r line ends), so offset i belongs to sse.Parse(body)[i].
type eventClock struct {
	start   time.Time // when the response headers arrived
	offsets []time.Duration
	end     time.Duration // when the body ended
	ends    []int64       // byte offset just past each event, for tests

	pos     int64   // bytes seen
	prevCR  bool    // the last byte was \r: a following \n ends nothing
	lineLen int     // bytes of the current line so far
	head    [7]byte // the line's first bytes: enough to tell its field
	headLen int
	hasData bool // current event has a data field
	named   bool // current event has a non-empty event field

	frames *frameCounter // set for an AWS event stream: frames, not SSE events
}

func newEventClock(start time.Time) *eventClock { return &eventClock{start: start} }

// write notes the bytes of p, which arrived at now.
func (c *eventClock) write(p []byte, now time.Time) {
	if c.frames != nil {
		c.frames.write(c, p, now)
		return
	}
	cr := -1 // the next \r at or after i, once looked for; len(p) when none
	for i := 0; i < len(p); i++ {
		if cr < i {
			cr = len(p)
			if k := bytes.IndexByte(p[i:], '\r'); k >= 0 {
				cr = i + k
			}
		}
		if j := lineBreak(p[i:], cr-i); j != 0 {
			// A run of line content: no byte of it ends a line.
			run := p[i:]
			if j > 0 {
				run = p[i : i+j]
			}
			c.prevCR = false
			c.headLen += copy(c.head[c.headLen:], run)
			c.lineLen += len(run)
			if j < 0 {
				break
			}
			i += j
		}
		b := p[i]
		switch {
		case b == '\n' && c.prevCR:
			c.prevCR = false
			if len(c.ends) > 0 && c.ends[len(c.ends)-1] == c.pos+int64(i) {
				c.ends[len(c.ends)-1]++ // sse.Parse ends the event after the \n of \r\n
			}
		default: // \n or \r
			c.prevCR = b == '\r'
			c.endLine(c.pos+int64(i)+1, now)
		}
	}
	c.pos += int64(len(p))
}

// endLine handles one complete line; end is the offset after its terminator.
func (c *eventClock) endLine(end int64, now time.Time) {
	if c.lineLen == 0 {
		if c.hasData || c.named {
			c.offsets = append(c.offsets, now.Sub(c.start))
			c.ends = append(c.ends, end)
		}
		c.hasData, c.named = false, false
		return
	}
	head := string(c.head[:c.headLen])
	switch {
	case head[0] == ':': // comment
	case head == "data" && c.lineLen == 4, len(head) >= 5 && head[:5] == "data:":
		c.hasData = true
	case head == "event" && c.lineLen == 5:
		c.named = false
	case len(head) >= 6 && head[:6] == "event:":
		// sse.Parse drops one space after the colon; the value is what is left.
		c.named = c.lineLen > 7 || c.lineLen == 7 && head[6] != ' '
	}
	c.lineLen, c.headLen = 0, 0
}

// finish closes the body: a final event without its blank line still counts,
// as sse.Parse returns it marked Unterminated.
func (c *eventClock) finish(now time.Time) {
	c.end = now.Sub(c.start)
	if c.frames != nil {
		c.frames.finish(c, now)
		return
	}
	if c.lineLen > 0 {
		c.endLine(c.pos, now)
	}
	if c.hasData || c.named {
		c.offsets = append(c.offsets, now.Sub(c.start))
		c.ends = append(c.ends, c.pos)
		c.hasData, c.named = false, false
	}
}

// lineBreak is the index of the first \n or \r in p, -1 when there is none;
// r is the index of the first \r, len(p) when there is none (found once per
// write: SSE rarely has one, and looking again for each line would read the
// rest of the write each time).
func lineBreak(p []byte, r int) int {
	n := bytes.IndexByte(p[:r], '\n')
	switch {
	case n >= 0:
		return n
	case r < len(p):
		return r
	}
	return -1
}
