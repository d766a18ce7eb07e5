package proxy

import (
	"bytes"
	"io"
	"os"
	"unicode/utf8"

	"github.com/llmtck/llmtck/internal/redact"
)

// spillAt is the body size above which a recorded body moves from memory to
// an unlinked temporary file, so a long stream does not grow the proxy.
var spillAt = 16 << 20

// holdBack is how many of the newest bytes stay in memory before they may
// go to the spill file: the secret scanner must have seen a token whole
// before any of it touches disk, and no token is longer than this.
const holdBack = 16 << 10

// bodyBuffer keeps a recorded body, in memory while it is small and in an
// unlinked temporary file once it is large. It scans every byte for secrets
// before the byte can reach the file.
type bodyBuffer struct {
	mem   []byte
	file  *os.File // nil until spilled; already removed from its folder
	spilt int64    // bytes in file
	scan  *redact.Scanner
	err   error // the first spill failure; the body is then not recorded

	noSpill bool // past spillAt, drop the body instead of spilling it
	dropped bool

	valid   bool   // every complete rune so far is UTF-8
	partial []byte // an incomplete rune at the end of the last write
}

func newBodyBuffer(field string) *bodyBuffer {
	return &bodyBuffer{scan: redact.NewScanner(field), valid: true}
}

// Write keeps p. It never fails: a spill error is kept in b.err, so the
// stream to the client carries on and only the recording is given up.
func (b *bodyBuffer) Write(p []byte) (int, error) {
	b.scan.Write(p)
	b.track(p)
	if b.err != nil || b.dropped || b.scan.Leak() != nil {
		return len(p), nil // not recorded anyway: keep nothing more
	}
	if b.noSpill && len(b.mem)+len(p) > spillAt {
		b.dropped, b.mem = true, nil
		return len(p), nil
	}
	b.mem = append(b.mem, p...)
	limit := spillAt
	if b.file != nil {
		limit = 1 << 20 // already on disk: keep memory small from now on
	}
	if len(b.mem) > limit {
		b.spill(len(b.mem) - holdBack)
	}
	return len(p), nil
}

// spill moves the first n bytes of mem to the file.
func (b *bodyBuffer) spill(n int) {
	if b.file == nil {
		f, err := os.CreateTemp("", "llmtck-body-*")
		if err != nil {
			b.err = err
			return
		}
		os.Remove(f.Name()) // nothing stays behind if the process dies
		b.file = f
	}
	if _, err := b.file.Write(b.mem[:n]); err != nil {
		b.err = err
		return
	}
	b.spilt += int64(n)
	b.mem = append(b.mem[:0], b.mem[n:]...)
}

// track follows whether the body is UTF-8, carrying a rune split between
// writes over to the next one.
func (b *bodyBuffer) track(p []byte) {
	if !b.valid {
		return
	}
	if len(b.partial) > 0 {
		p = append(b.partial, p...)
		b.partial = nil
	}
	for len(p) > 0 {
		r, n := utf8.DecodeRune(p)
		if r == utf8.RuneError && n <= 1 {
			if !utf8.FullRune(p) {
				b.partial = append([]byte(nil), p...)
				return
			}
			b.valid = false
			return
		}
		p = p[n:]
	}
}

// UTF8 reports whether the whole body is valid UTF-8.
func (b *bodyBuffer) UTF8() bool { return b.valid && len(b.partial) == 0 }

// Spilled reports whether the body lives in the temporary file.
func (b *bodyBuffer) Spilled() bool { return b.file != nil }

// Len is the body's size.
func (b *bodyBuffer) Len() int64 { return b.spilt + int64(len(b.mem)) }

// Bytes returns the body when it is in memory, or nil.
func (b *bodyBuffer) Bytes() []byte {
	if b.file != nil || b.dropped {
		return nil
	}
	if b.mem == nil {
		return []byte{}
	}
	return b.mem
}

// Reader reads the whole body from the start.
func (b *bodyBuffer) Reader() io.Reader {
	if b.file == nil {
		return bytes.NewReader(b.mem)
	}
	return io.MultiReader(io.NewSectionReader(b.file, 0, b.spilt), bytes.NewReader(b.mem))
}

// Close frees the body.
func (b *bodyBuffer) Close() {
	if b.file != nil {
		b.file.Close()
		b.file = nil
	}
	b.mem = nil
}
