package proxy

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzBodyUTF8 checks that the running UTF-8 check, fed in pieces, agrees
// with utf8.Valid on the whole body.
func FuzzBodyUTF8(f *testing.F) {
	for _, s := range []string{"plain", "é☃😀", "\xff", "a\xe2\x98", "\xe2\x98\x83\xe2"} {
		f.Add([]byte(s), uint8(1))
	}
	f.Fuzz(func(t *testing.T, body []byte, n uint8) {
		b := newBodyBuffer("body", 0)
		step := int(n%8) + 1
		for i := 0; i < len(body); i += step {
			b.Write(body[i:min(len(body), i+step)])
		}
		if b.scan.Leak() != nil {
			return // a body holding a credential is not kept past it
		}
		if got, want := b.UTF8(), utf8.Valid(body); got != want {
			t.Fatalf("%q in pieces of %d: UTF8() = %v, utf8.Valid = %v", body, step, got, want)
		}
	})
}

// TestSpilledBodyHoldsBackWhatTheScanJudges writes a stream that spills,
// then a credential split across two writes: nothing of the credential may
// leave memory (for the file, or the block lines on their way to it)
// before the scanner has seen it whole, and memory holds no more than the
// bytes the scanner is still judging.
func TestSpilledBodyHoldsBackWhatTheScanJudges(t *testing.T) {
	defer func(n int) { spillAt = n }(spillAt)
	spillAt = 64 << 10
	b := newBodyBuffer("response.body", -1)
	defer b.Close()
	event := []byte("data: {\"text\":\"" + strings.Repeat("word ", 200) + "\"}\n\n")
	for b.Len() < 4*int64(spillAt) {
		b.Write(event)
		if !b.Spilled() {
			continue
		}
		if got, want := len(b.mem), b.scan.Pending(); got > want {
			t.Fatalf("a spilled body holds %d bytes in memory; the scanner judges %d", got, want)
		}
	}
	key := "sk-ant-api03-" + "Zq3x9LmP0aB7cD2eF4gH6iJ8kL0mN2oP4qR6sT8uV0wX2yZ4aB6cD8eF0gH2iJ4kL6mN8oP0qR2sT4uV6w"
	b.Write([]byte("data: {\"text\":\"" + key[:20]))
	left := func() []byte {
		out := make([]byte, b.written)
		if _, err := b.file.ReadAt(out, 0); err != nil {
			t.Fatal(err)
		}
		return append(out, b.lines...)
	}
	if bytes.Contains(left(), []byte(key[:8])) {
		t.Fatal("the start of a credential left memory before the scanner saw its end")
	}
	b.Write([]byte(key[20:] + "\"}\n\n"))
	if b.scan.Leak() == nil {
		t.Fatal("the scanner missed the credential")
	}
	if bytes.Contains(left(), []byte(key[:8])) {
		t.Fatal("a credential left memory")
	}
}

// failingFile takes the first room bytes written to it and fails after.
type failingFile struct{ room, n int }

func (f *failingFile) Write(p []byte) (int, error) {
	if f.n+len(p) > f.room {
		k := f.room - f.n
		f.n = f.room
		return k, errors.New("no space left on device")
	}
	f.n += len(p)
	return len(p), nil
}
func (f *failingFile) ReadAt(p []byte, off int64) (int, error) { return 0, io.EOF }
func (f *failingFile) Close() error                            { return nil }

// A spilled body's file write that fails is found once the body has
// ended, with what it did write counted, and the stream is never failed
// for it.
func TestSpillWriteFailureShowsAtTheEnd(t *testing.T) {
	defer func(n int) { spillAt = n }(spillAt)
	spillAt = 64 << 10
	f := &failingFile{room: 300 << 10}
	b := newBodyBuffer("response.body", 0)
	b.file = f
	line := []byte("data: " + strings.Repeat("x", 1000) + "\n\n")
	for range 4 << 10 {
		if n, err := b.Write(line); n != len(line) || err != nil {
			t.Fatalf("Write = %d, %v: the stream must go on", n, err)
		}
	}
	if _, err := b.trailingNewlines(); err == nil || !strings.Contains(err.Error(), "no space left") {
		t.Fatalf("trailingNewlines error = %v, want the write's", err)
	}
	if b.written != int64(f.room) {
		t.Errorf("written = %d, want the %d bytes the file took", b.written, f.room)
	}
	b.Close()
}
