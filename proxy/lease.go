package proxy

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/internal/cassetteyaml"
)

// A lease lends the end of the cassette to one event stream too large to
// keep in memory, so its block lines go into the cassette as they arrive
// instead of into a temporary file that is copied over once the stream
// ends, while the client waits.
//
// The interaction is written from its start, with cassette.Busy in place of
// its "- request:" line: Busy ends the YAML document, so a recorder killed
// mid-stream leaves a file that go-vcr loads (the unfinished interaction is
// outside the document) and that llmtck reads as torn from the mark on.
// Once the stream ends the rest of the interaction is appended and the item
// start written back over the mark.
//
// The cassette's end is the lease's only while nothing else is appended:
// another append first takes it back (revoke), moving what the lease wrote
// into a temporary file, from which the stream goes on as if it had spilt
// there from the start.
type lease struct {
	s     *sink
	head  []byte // the interaction up to its response body, with the block indicator guessed
	start int64  // where the interaction starts in the cassette

	mu   sync.Mutex // guards what follows, between the body's writes and a revoke
	n    int64      // block line bytes written after head
	file *os.File   // once revoked: the temporary file holding the block lines
	err  error
}

// guessedIndicator is the block indicator a lease writes before it knows how
// the body ends: an event stream ends in a blank line, so keep chomping.
func guessedIndicator(first byte) string { return cassetteyaml.BlockIndicator(first, 2) }

// borrow lends the cassette's end to a body that starts spilling, or
// returns nil when it is taken (another stream has it, or an append is
// under way) or the sink cannot write. head is the interaction up to its
// response body, as spilledFrame cuts it, and first the body's first byte.
func (s *sink) borrow(head []byte, first byte) *lease {
	// The stream to the client waits on the body's keeper: it spills into
	// a temporary file rather than wait for another append to finish.
	if !s.mu.TryLock() {
		return nil
	}
	defer s.mu.Unlock()
	if s.lease != nil || s.broken != nil || !bytes.HasPrefix(head, []byte(itemStart)) {
		return nil
	}
	s.qmu.Lock()
	closed := s.closed
	s.qmu.Unlock()
	if closed {
		return nil
	}
	if s.patcher == nil {
		// Opened now, so a stream is never written in place that could
		// not be unmarked.
		f, err := os.OpenFile(s.path, os.O_WRONLY, 0)
		if err != nil {
			return nil
		}
		s.patcher = f
	}
	l := &lease{s: s, start: s.size}
	l.head = append(append([]byte(cassette.Busy), head[len(itemStart):]...), guessedIndicator(first)...)
	if _, err := s.f.Write(l.head); err != nil {
		s.f.Truncate(s.size)
		return nil
	}
	s.lease = l
	return l
}

// itemStart is what starts every interaction in the cassette, and what
// cassette.Busy stands for while one is written in place.
const itemStart = "- request:\n"

// Write appends block lines to the interaction in the cassette, or to the
// temporary file once the lease is revoked.
func (l *lease) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return 0, l.err
	}
	if l.file != nil {
		return l.file.Write(p)
	}
	n, err := l.s.f.Write(p)
	l.n += int64(n)
	if err != nil {
		l.err = err
	}
	return n, err
}

// ReadAt reads the block lines written so far.
func (l *lease) ReadAt(p []byte, off int64) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return 0, l.err
	}
	if l.file != nil {
		return l.file.ReadAt(p, off)
	}
	if off >= l.n {
		return 0, io.EOF
	}
	n, err := l.s.f.ReadAt(p[:min(int64(len(p)), l.n-off)], l.start+int64(len(l.head))+off)
	if err == nil && n < len(p) {
		err = io.EOF
	}
	return n, err
}

// Close gives the lease up for a body that is not recorded: what it wrote
// is cut off the cassette. It frees the temporary file of a revoked one.
func (l *lease) Close() error {
	l.s.mu.Lock()
	defer l.s.mu.Unlock()
	if l.s.lease == l {
		l.s.lease = nil
		if err := l.s.f.Truncate(l.start); err != nil {
			l.s.broken = fmt.Errorf("%s: a stream that was not recorded could not be removed from the end of the file (%v); recording stopped", l.s.path, err)
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.file != nil {
		return l.file.Close()
	}
	return nil
}

// revoke takes the cassette's end back from the lease holding it, if any,
// before something else is written there. The caller holds s.mu.
func (s *sink) revoke() {
	l := s.lease
	if l == nil {
		return
	}
	s.lease = nil
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil {
		f, err := os.CreateTemp("", "llmtck-body-*")
		if err == nil {
			os.Remove(f.Name())
			// A large piece: f's own ReadFrom would copy through a small buffer.
			_, err = io.CopyBuffer(struct{ io.Writer }{f}, io.NewSectionReader(s.f, l.start+int64(len(l.head)), l.n), make([]byte, spillPiece))
			if err != nil {
				f.Close()
			}
		}
		if err != nil {
			l.err = fmt.Errorf("moving the stream out of the way of another interaction: %w", err)
		} else {
			l.file = f
		}
	}
	if err := s.f.Truncate(l.start); err != nil {
		s.broken = fmt.Errorf("%s: a stream written in place could not be moved out of the way (%v); recording stopped", s.path, err)
	}
}

// dropLease cuts a stream still written in place off the cassette when the
// sink closes under it; the stream is not recorded. The caller holds s.mu.
func (s *sink) dropLease() {
	l := s.lease
	if l == nil {
		return
	}
	s.lease = nil
	l.mu.Lock()
	if l.err == nil {
		l.err = errClosed
	}
	l.mu.Unlock()
	if err := s.f.Truncate(l.start); err != nil {
		s.broken = fmt.Errorf("%s: a stream still under way could not be removed from the end of the file (%v)", s.path, err)
	}
}

// appendLeased finishes an interaction whose body went into the cassette
// under a lease: the rest of the body and the interaction are appended,
// then the item's start is written over the mark. When the guess the lease
// started with turns out wrong (the body is no literal block, or ends in
// another number of line breaks than the indicator's width allows, or the
// request is not the one the head was written for) the lease is revoked
// and the interaction written as any spilled one.
func (s *sink) appendLeased(seq uint64, in *cassette.Interaction, body *bodyBuffer, l *lease) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.broken != nil {
		return 0, s.broken
	}
	before, after, err := spilledFrame(in)
	if err != nil {
		return 0, err
	}
	trailing, err := body.trailingNewlines()
	if err != nil {
		return 0, err
	}
	indicator, guessed := cassetteyaml.BlockIndicator(body.first, trailing), guessedIndicator(body.first)
	head := len(l.head) - len(guessed)
	if s.lease != l || !body.BlockSafe() || len(indicator) != len(guessed) ||
		len(before) != head || !bytes.Equal(before[len(itemStart):], l.head[len(cassette.Busy):head]) {
		s.revoke()
		return s.appendSpilledLocked(seq, in, body)
	}
	// The body's newest bytes, as block lines after those the lease wrote;
	// a body that ends in a line break has the one the item's rest starts
	// with already.
	tail, _ := cassetteyaml.AppendBlockLines(make([]byte, 0, len(body.mem)+len(body.mem)/8+64), body.mem, spilledIndent, body.atLine)
	if trailing > 0 {
		after = after[1:]
	}
	tail = append(tail, after...)
	end := l.start + int64(len(l.head)) + l.n
	if _, err = s.f.Write(tail); err == nil && indicator != guessed {
		_, err = s.patch(l.start+int64(head), indicator)
	}
	if err == nil {
		_, err = s.patch(l.start, itemStart)
	}
	s.lease = nil
	if err != nil {
		if terr := s.f.Truncate(l.start); terr != nil {
			s.broken = fmt.Errorf("%s: writing failed (%v) and the partial interaction could not be removed (%v); recording stopped", s.path, err, terr)
		}
		return 0, fmt.Errorf("%s: %w", s.path, err)
	}
	s.size = end + int64(len(tail))
	s.items = append(s.items, item{seq: seq, off: l.start, n: s.size - l.start})
	s.kickSyncer()
	return s.loaded + len(s.items) - 1, nil
}

// patch writes text at off in the cassette, through the descriptor borrow
// opened: the sink's own appends wherever it writes.
func (s *sink) patch(off int64, text string) (int, error) {
	return s.patcher.WriteAt([]byte(text), off)
}
