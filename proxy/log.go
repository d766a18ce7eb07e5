package proxy

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/llmtck/llmtck/conformance/check"
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
	bp := encodeBuffers.Get().(*[]byte)
	b := (*bp)[:0]
	for _, c := range calls {
		b = appendLine(b, c)
	}
	l.write(redact.TextBytes(b)) // a key may sit in the URL path or a miss's diff
	if cap(b) <= maxPooled {
		*bp = b
		encodeBuffers.Put(bp)
	}
}

func (l *callLog) write(p []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.w.Write(p)
}

// appendLine appends c's line to b.
func appendLine(b []byte, c *call) []byte {
	b = append(b, c.line.verb...)
	b = append(b, ' ')
	b = append(b, c.method...)
	b = append(b, ' ')
	b = append(b, c.host...)
	b = append(b, c.path...)
	b = append(b, ' ')
	if c.status == 0 {
		b = append(b, "ERR"...)
	} else {
		b = strconv.AppendInt(b, int64(c.status), 10)
	}
	if c.stream {
		b = append(b, " stream "...)
	} else {
		b = append(b, " plain "...)
	}
	b = append(b, round(c.line.dur).String()...)
	if c.tools < 0 {
		b = append(b, " tools=?"...)
	} else {
		b = append(b, " tools="...)
		b = strconv.AppendInt(b, int64(c.tools), 10)
	}
	b = append(b, " lint="...)
	if len(c.findings) == 0 {
		b = append(b, '-')
	}
	for i, f := range c.findings {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, f.Check...)
	}
	b = append(b, " cassette="...)
	switch {
	case c.book == nil:
		b = append(b, '-')
	case c.index < 0:
		b = append(b, c.book.name...)
		b = append(b, "#-"...)
	default:
		b = append(b, c.book.name...)
		b = append(b, '#')
		b = strconv.AppendInt(b, int64(c.index), 10)
	}
	if c.note != "" {
		b = append(b, ' ')
		b = append(b, strings.ReplaceAll(c.note, "\n", "\n    ")...)
	}
	return appendFindingText(append(b, '\n'), c.findings)
}

// appendFindingText appends what each error and warning of a call says,
// on an indented line of its own under the call's line, so that the log
// tells why and not only which check (llmtck explain ID tells more).
func appendFindingText(b []byte, fs []check.Finding) []byte {
	for _, f := range fs {
		if f.Severity != check.SeverityError && f.Severity != check.SeverityWarning {
			continue
		}
		b = append(b, "    "...)
		b = append(b, f.Check...)
		b = append(b, ' ')
		b = append(b, f.Severity...)
		if f.Location != "" {
			b = append(b, ' ')
			b = append(b, f.Location...)
		}
		b = append(b, ": "...)
		b = append(b, strings.ReplaceAll(f.Message, "\n", " ")...)
		b = append(b, '\n')
	}
	return b
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
