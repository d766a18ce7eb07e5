package proxy

import (
	"encoding/binary"
	"net/http"
	"strings"
	"time"

	"github.com/llmtck/llmtck/internal/eventstream"
)

// eventStreamType is the content type of AWS event streams (Bedrock's
// ConverseStream and InvokeModelWithResponseStream).
const eventStreamType = "application/vnd.amazon.eventstream"

func isEventStream(h http.Header, body []byte) bool {
	ct := strings.ToLower(h.Get("Content-Type"))
	return strings.HasPrefix(ct, eventStreamType) || ct == "" && body != nil && eventstream.Looks(body)
}

// frameCounter notes when each frame of an AWS event stream has arrived
// whole, from the total length at the start of every frame, as the bytes go
// by. A length no frame can have stops the counting: the rest of the body
// is one piece.
type frameCounter struct {
	left   int64 // bytes of the current frame still to come
	lenBuf [4]byte
	lenN   int
	broken bool
}

func (f *frameCounter) write(c *eventClock, p []byte, now time.Time) {
	for len(p) > 0 && !f.broken {
		if f.left == 0 {
			n := copy(f.lenBuf[f.lenN:], p)
			f.lenN += n
			p = p[n:]
			c.pos += int64(n)
			if f.lenN < 4 {
				return
			}
			total := int64(binary.BigEndian.Uint32(f.lenBuf[:]))
			f.lenN = 0
			if total < 16 || total > eventstream.MaxFrameLen {
				f.broken = true
				break
			}
			f.left = total - 4
			continue
		}
		n := min(int64(len(p)), f.left)
		f.left -= n
		p = p[n:]
		c.pos += n
		if f.left == 0 {
			c.offsets = append(c.offsets, now.Sub(c.start))
			c.ends = append(c.ends, c.pos)
		}
	}
	c.pos += int64(len(p))
}

// finish counts a frame the body ended inside, as the decoder reports it.
func (f *frameCounter) finish(c *eventClock, now time.Time) {
	if f.left > 0 || f.lenN > 0 || f.broken && (len(c.ends) == 0 || c.ends[len(c.ends)-1] < c.pos) {
		c.offsets = append(c.offsets, now.Sub(c.start))
		c.ends = append(c.ends, c.pos)
	}
}

// splitFrames cuts a recorded event stream into its frames, each due at its
// recorded offset; what follows the last whole frame is one more piece.
func splitFrames(body []byte, recorded []time.Duration) ([][]byte, []time.Duration, time.Duration) {
	starts, end := eventstream.Offsets(body)
	n := len(starts)
	if end < len(body) {
		n++
	}
	offsets, bodyEnd := endOf(recorded, n)
	timed := len(offsets) == n
	chunks := make([][]byte, 0, n)
	at := make([]time.Duration, 0, n)
	for i, s := range starts {
		e := end
		if i+1 < len(starts) {
			e = starts[i+1]
		}
		chunks = append(chunks, body[s:e])
	}
	if end < len(body) || len(chunks) == 0 {
		chunks = append(chunks, body[end:])
	}
	for i := range chunks {
		switch {
		case timed:
			at = append(at, offsets[i])
		case len(at) > 0:
			at = append(at, at[len(at)-1])
		default:
			at = append(at, 0)
		}
	}
	return chunks, at, bodyEnd
}
