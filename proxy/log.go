package proxy

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/llmtck/llmtck/internal/redact"
)

// callLog writes one line per call, and warnings, to the log writer.
type callLog struct {
	mu sync.Mutex
	w  io.Writer
}

// lines writes the lines of calls, each
//
//	record POST api.anthropic.com/v1/messages 200 stream 1.204s tools=1 lint=ANT-TOOL-001 cassette=api.anthropic.com.yaml#3
//
// followed by what went wrong, if anything; a multi-line note (a replay
// miss's diff) continues on indented lines. The cassette's #N is the
// interaction's place in the file Close leaves (see lineOrder). They go out
// in one write.
func (l *callLog) lines(calls []*call) {
	if l.w == nil {
		return
	}
	var b strings.Builder
	for _, c := range calls {
		appendLine(&b, c)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	io.WriteString(l.w, redact.Text(b.String())) // a key may sit in the URL path or a miss's diff
}

func appendLine(b *strings.Builder, c *call) {
	kind := "plain"
	if c.stream {
		kind = "stream"
	}
	status := strconv.Itoa(c.status)
	if c.status == 0 {
		status = "ERR"
	}
	b.WriteString(c.line.verb + " " + c.method + " " + c.host + c.path + " " + status + " " + kind + " " + round(c.line.dur).String())
	if c.tools < 0 {
		b.WriteString(" tools=?")
	} else {
		b.WriteString(" tools=")
		b.WriteString(strconv.Itoa(c.tools))
	}
	b.WriteString(" lint=")
	if len(c.findings) == 0 {
		b.WriteString("-")
	}
	for i, f := range c.findings {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(f.Check)
	}
	switch {
	case c.book == nil:
		b.WriteString(" cassette=-")
	case c.index < 0:
		b.WriteString(" cassette=" + c.book.name + "#-")
	default:
		b.WriteString(" cassette=" + c.book.name + "#" + strconv.Itoa(c.index))
	}
	if c.note != "" {
		b.WriteString(" ")
		b.WriteString(strings.ReplaceAll(c.note, "\n", "\n    "))
	}
	b.WriteByte('\n')
}

func (l *callLog) warn(msg string) {
	if l.w == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "llmtck: warning: %s\n", msg)
}

// round keeps a duration readable: milliseconds, or microseconds below one.
func round(d time.Duration) time.Duration {
	if d >= time.Millisecond {
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Microsecond)
}
