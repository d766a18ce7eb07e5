package proxy

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"slices"
	"unicode/utf8"

	"github.com/llmtck/llmtck/internal/cassetteyaml"
	"github.com/llmtck/llmtck/internal/redact"
)

// spillAt is the body size above which a recorded body moves from memory to
// an unlinked temporary file, so a long stream does not grow the proxy.
var spillAt = 4 << 20

// bodyBuffer keeps a recorded body, in memory while it is small and in an
// unlinked temporary file once it is large. It scans every byte for secrets
// before the byte can reach the file: the bytes the scanner has not judged
// yet (redact.Scanner.Pending) stay in memory.
//
// The file holds the body as the lines of the literal block the cassette
// encoder writes for it (each line that is not empty indented by six
// spaces), whatever the body turns out to be. So an event stream, the body
// that spills most often, goes into the cassette as it is: in place, under
// a lease, or as a copy of the file; any other body is read back through
// blockLines, which takes the indentation off.
type bodyBuffer struct {
	mem     []byte    // the bytes not spilt yet
	file    spillFile // nil until spilled: a file already removed from its folder, or a lease
	spilt   int64     // bytes of the body made into block lines: those in file, then those in lines
	written int64     // bytes in file: block lines
	atLine  bool      // the spilt bytes end on a line break (or there are none)
	// borrow, when set, asks for the cassette's end to spill into (see
	// lease); it returns nil when the end is not to be had.
	borrow func(first byte) *lease
	scan   *redact.Scanner
	err    error // the first spill failure; the body is then not recorded

	lines []byte // block lines on their way to the file, written once they make a spillPiece

	noSpill bool // past spillAt, drop the body instead of spilling it
	dropped bool

	// What decides whether the body can be a literal block (see BlockSafe).
	// block and valid are worked out as the body goes to the file, in the
	// pass that writes its lines, and for the bytes left in memory once it
	// has ended (settle): a body that never spills is never looked at.
	valid   bool // the bytes looked at are UTF-8
	block   bool // the bytes looked at may stand in a literal block
	settled bool
	first   byte // the body's first byte, once there is one
	started bool
	newline bool // a line break has been seen
	text    bool // a byte other than space, tab and line break has been seen
}

func newBodyBuffer(field string, size int64) *bodyBuffer {
	b := &bodyBuffer{scan: redact.NewScanner(field), valid: true, block: true, atLine: true}
	if size > 0 && size <= int64(spillAt) {
		b.mem = make([]byte, 0, size)
	}
	return b
}

// Write keeps p. It never fails: a spill error is kept in b.err, so the
// stream to the client carries on and only the recording is given up.
func (b *bodyBuffer) Write(p []byte) (int, error) {
	b.scan.Write(p)
	b.note(p)
	if b.err != nil || b.dropped || b.scan.Leak() != nil {
		return len(p), nil // not recorded anyway: keep nothing more
	}
	if b.file != nil {
		b.writeThrough(p)
		return len(p), nil
	}
	if b.noSpill && len(b.mem)+len(p) > spillAt {
		b.dropped, b.mem = true, nil
		return len(p), nil
	}
	if len(b.mem)+len(p) > cap(b.mem) {
		// Double, up to what spills: append grows a large slice by a
		// quarter at a time, which copies a body on its way to spillAt
		// several times over.
		room := min(2*cap(b.mem), spillAt+spillPiece)
		b.mem = slices.Grow(b.mem, max(len(p), room-len(b.mem)))
	}
	b.mem = append(b.mem, p...)
	if len(b.mem) > spillAt {
		b.spill(len(b.mem) - b.scan.Pending())
	}
	return len(p), nil
}

// writeThrough keeps p once the body has spilt: all of it but the bytes
// the scanner is still judging goes on as block lines straight from p,
// without a stop in mem, which holds just those bytes from write to write.
func (b *bodyBuffer) writeThrough(p []byte) {
	keep := b.scan.Pending()
	if len(b.mem) > 0 {
		// mem may end inside a rune whose rest starts p: make it whole
		// in mem, so each piece is looked at alone.
		k := 0
		for k < len(p) && k < utf8.UTFMax-1 && !utf8.RuneStart(p[k]) {
			k++
		}
		if len(p)-keep < k {
			b.mem = append(b.mem, p...) // all of p is still being judged
			return
		}
		b.mem = append(b.mem, p[:k]...)
		b.toLines(b.mem)
		b.mem, p = b.mem[:0], p[k:]
	}
	cut := runeStart(p, max(0, len(p)-keep))
	b.toLines(p[:cut])
	b.mem = append(b.mem, p[cut:]...)
	if len(b.lines) >= spillPiece {
		b.flushLines()
	}
}

// spill moves the first n bytes of mem to the file, as block lines, or a
// few fewer: it cuts no rune, so each piece can be looked at alone.
func (b *bodyBuffer) spill(n int) {
	n = runeStart(b.mem, n)
	if b.file == nil && b.borrow != nil {
		if l := b.borrow(b.first); l != nil {
			b.file = l
		}
	}
	if b.file == nil {
		f, err := os.CreateTemp("", "llmtck-body-*")
		if err != nil {
			b.err = err
			return
		}
		os.Remove(f.Name()) // nothing stays behind if the process dies
		b.file = f
	}
	// A piece at a time, so the lines cost a small buffer, not a second
	// copy of the body.
	for at := 0; at < n && b.err == nil; {
		end := n
		if at+spillPiece < n {
			end = runeStart(b.mem, at+spillPiece)
		}
		b.toLines(b.mem[at:end])
		b.flushLines()
		at = end
	}
	if b.err != nil {
		return
	}
	if cap(b.mem) > spilledCap {
		// Keep the rest in a small array: the large one can be freed.
		b.mem = append(make([]byte, 0, spilledCap), b.mem[n:]...)
		return
	}
	b.mem = b.mem[:copy(b.mem, b.mem[n:])]
}

// toLines adds piece, which ends on a rune's end, to the block lines on
// their way to the file, and looks at it for BlockSafe and UTF8 as it goes.
func (b *bodyBuffer) toLines(piece []byte) {
	if b.lines == nil {
		b.lines = make([]byte, 0, spillPiece+spillPiece/2)
	}
	if b.block {
		var ok bool
		b.lines, b.atLine, ok = cassetteyaml.AppendBlockLinesText(b.lines, piece, spilledIndent, b.atLine)
		// Text a block can hold is UTF-8: the pieces before were.
		if !ok {
			b.block, b.valid = false, utf8.Valid(piece)
		}
	} else {
		b.lines, b.atLine = cassetteyaml.AppendBlockLines(b.lines, piece, spilledIndent, b.atLine)
		b.valid = b.valid && utf8.Valid(piece)
	}
	b.spilt += int64(len(piece))
}

// flushLines writes the block lines made so far to the file.
func (b *bodyBuffer) flushLines() {
	if len(b.lines) == 0 || b.err != nil {
		return
	}
	n, err := b.file.Write(b.lines)
	b.written += int64(n)
	if err != nil {
		b.err = err
	}
	b.lines = b.lines[:0]
}

// spillFile is where a body's block lines go once it spills.
type spillFile interface {
	io.Writer
	io.ReaderAt
	io.Closer
}

// spilledCap is the memory a spilled body keeps for the bytes the scanner
// is judging (a run of token bytes: at most 16 KB) and a write.
const spilledCap = 64 << 10

// spillPiece is how much of the body goes to the file in one write.
const spillPiece = 256 << 10

// spilledIndent is the indentation of the key a body is the value of in a
// cassette ("    body:"); its block lines are indented two more.
const spilledIndent = 4

// note keeps what BlockSafe asks of the body that one look at each write
// tells: its first byte, and whether a line break and text have come.
func (b *bodyBuffer) note(p []byte) {
	if len(p) == 0 {
		return
	}
	if !b.started {
		b.started, b.first = true, p[0]
	}
	if !b.newline {
		b.newline = bytes.IndexByte(p, '\n') >= 0
	}
	if !b.text {
		b.text = len(bytes.TrimLeft(p, " \t\n")) > 0
	}
}

// runeStart moves i in p back to the start of the rune it falls in, so a
// cut there splits no rune; at the end of p, to the start of a rune p does
// not finish yet. Bytes that are no rune are cut anywhere.
func runeStart(p []byte, i int) int {
	if i == len(p) {
		for k := i - 1; k >= 0 && k > i-utf8.UTFMax; k-- {
			if utf8.RuneStart(p[k]) {
				if !utf8.FullRune(p[k:]) {
					return k
				}
				break
			}
		}
		return i
	}
	for k := i; k < len(p) && k > i-utf8.UTFMax && k >= 0; k-- {
		if utf8.RuneStart(p[k]) {
			return k
		}
	}
	return i
}

// settle writes out the block lines still on their way once the body has
// ended (a failure is kept in b.err), and looks at the bytes still in
// memory; the spilt ones were looked at on their way to the file.
func (b *bodyBuffer) settle() {
	if b.settled {
		return
	}
	b.settled = true
	b.flushLines()
	if b.block {
		b.block = cassetteyaml.BlockText(b.mem)
	}
	if !b.block && b.valid {
		b.valid = utf8.Valid(b.mem)
	}
}

// UTF8 reports whether the whole body is valid UTF-8. It is asked once the
// body has ended.
func (b *bodyBuffer) UTF8() bool {
	b.settle()
	return b.valid
}

// BlockSafe reports whether the whole body can be written as a literal
// block, as the cassette encoder writes such a body in memory: several
// lines of text a block can hold, some with more than white space. It is
// asked once the body has ended.
func (b *bodyBuffer) BlockSafe() bool {
	b.settle()
	return b.block && b.newline && b.text
}

// trailingNewlines counts the line breaks that end the body. It is asked
// once the body has ended.
func (b *bodyBuffer) trailingNewlines() (int, error) {
	if b.settle(); b.err != nil {
		return 0, b.err
	}
	n := len(b.mem) - len(bytes.TrimRight(b.mem, "\n"))
	if n < len(b.mem) || b.file == nil {
		return n, nil
	}
	// The newest bytes are all line breaks: count on into the file, whose
	// block lines end in as many as the body they stand for.
	var c [1]byte
	for at := b.written - 1; at >= 0; at-- {
		if _, err := b.file.ReadAt(c[:], at); err != nil {
			return 0, err
		}
		if c[0] != '\n' {
			break
		}
		n++
	}
	return n, nil
}

// Spilled reports whether the body has left memory: for a temporary file,
// or for the cassette under a lease.
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

// Reader reads the whole body from the start, once it has ended (settle).
func (b *bodyBuffer) Reader() io.Reader {
	if b.file == nil {
		return bytes.NewReader(b.mem)
	}
	spilt := &blockLines{r: bufio.NewReaderSize(io.NewSectionReader(b.file, 0, b.written), 64<<10), atLine: true}
	return io.MultiReader(spilt, bytes.NewReader(b.mem))
}

// blockLines reads block lines back as the text they stand for: the
// indentation of each line that is not empty comes off.
type blockLines struct {
	r      *bufio.Reader
	atLine bool   // the next byte starts a line
	line   []byte // what is left of the line being read (in r's buffer)
}

func (l *blockLines) Read(p []byte) (int, error) {
	if len(l.line) == 0 {
		if l.atLine {
			if c, err := l.r.Peek(1); err == nil && c[0] != '\n' {
				if _, err := l.r.Discard(spilledIndent + 2); err != nil {
					return 0, noEOF(err)
				}
			}
		}
		line, err := l.r.ReadSlice('\n')
		if len(line) == 0 && err != nil {
			return 0, err
		}
		l.line, l.atLine = line, line[len(line)-1] == '\n'
	}
	n := copy(p, l.line)
	l.line = l.line[n:]
	return n, nil
}

// noEOF turns an end met inside an indentation into the fault it is.
func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// Close frees the body.
func (b *bodyBuffer) Close() {
	if b.file != nil {
		b.file.Close()
		b.file = nil
	}
	b.mem = nil
}
