package proxy

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"io"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/internal/cassetteyaml"
)

// encodeSpilled writes an interaction whose response body is too large to
// hold in memory. The cassette encoder lays out everything else around a
// placeholder body, and the body is streamed in the placeholder's place: as
// a literal block when the encoder would write it as one in memory (an
// event stream: it costs little more than a copy), as a double-quoted YAML
// string when it is other UTF-8, else as !!binary base64 — all forms stock
// go-vcr reads back byte for byte.
func encodeSpilled(w io.Writer, in *cassette.Interaction, body *bodyBuffer) error {
	head, rest, err := spilledFrame(in)
	if err != nil {
		return err
	}
	block, text := body.BlockSafe(), body.UTF8()
	if body.err != nil {
		return body.err // the end of its spill failed
	}
	if _, err := w.Write(head); err != nil {
		return err
	}
	switch {
	case block:
		err = writeBlock(w, body)
	case text:
		err = writeDoubleQuoted(w, body.Reader())
	default:
		err = writeBinary(w, body.Reader())
	}
	if err != nil {
		return err
	}
	_, err = w.Write(rest)
	return err
}

// spilledFrame encodes in around its response body: head is everything
// before the body's value ("- request:" … "    body: "), rest what follows
// it (from the line break that ends it).
func spilledFrame(in *cassette.Interaction) (head, rest []byte, err error) {
	var id [8]byte
	rand.Read(id[:])
	marker := "llmtck-spilled-body-" + hex.EncodeToString(id[:])
	cp := *in
	cp.Response.Body = []byte(marker)
	frame := cassette.AppendInteraction(nil, &cp)
	const key = "\n    body: "
	before, after, ok := bytes.Cut(frame, []byte(key+marker+"\n"))
	if !ok {
		return nil, nil, errors.New("internal error: the cassette encoder did not write the body placeholder as expected")
	}
	return frame[:len(before)+len(key)], frame[len(frame)-len(after)-1:], nil
}

// writeBlock writes a block-safe body as the literal block the cassette
// encoder writes for it in memory, indented under "    body:", but for the
// line break that ends the block, which the caller writes. The spilt part
// is in the file as block lines already: it is copied as it is.
func writeBlock(w io.Writer, body *bodyBuffer) error {
	trailing, err := body.trailingNewlines()
	if err != nil {
		return err
	}
	if _, err := io.WriteString(w, cassetteyaml.BlockIndicator(body.first, trailing)); err != nil {
		return err
	}
	// Block lines end in as many line breaks as the text; the last is the
	// caller's. The body's last byte is in memory unless all of it spilt.
	mem, written := body.mem, body.written
	if trailing > 0 {
		if len(mem) > 0 {
			mem = mem[:len(mem)-1]
		} else {
			written--
		}
	}
	if body.file != nil {
		// Large pieces: w's own ReadFrom would copy through its small buffer.
		piece := make([]byte, spillPiece)
		if _, err := io.CopyBuffer(struct{ io.Writer }{w}, io.NewSectionReader(body.file, 0, written), piece); err != nil {
			return err
		}
	}
	out, _ := cassetteyaml.AppendBlockLines(make([]byte, 0, len(mem)+len(mem)/8+64), mem, spilledIndent, body.atLine)
	_, err = w.Write(out)
	return err
}

// writeDoubleQuoted streams UTF-8 text from r as one YAML double-quoted
// scalar, escaped as the cassette encoder escapes a body in memory.
func writeDoubleQuoted(w io.Writer, r io.Reader) error {
	in := make([]byte, 64<<10)
	out := make([]byte, 0, 80<<10)
	out = append(out, '"')
	carried := 0 // bytes at the start of in: a rune the last read cut off
	for {
		n, rerr := r.Read(in[carried:])
		n += carried
		var took int
		out, took = cassetteyaml.AppendEscaped(out, in[:n], rerr == nil)
		carried = copy(in, in[took:n])
		if len(out) > 64<<10 || rerr != nil {
			if _, err := w.Write(out); err != nil {
				return err
			}
			out = out[:0]
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return rerr
		}
	}
	_, err := w.Write([]byte{'"'})
	return err
}

// writeBinary streams r as a YAML !!binary scalar on one line.
func writeBinary(w io.Writer, r io.Reader) error {
	if _, err := io.WriteString(w, "!!binary "); err != nil {
		return err
	}
	enc := base64.NewEncoder(base64.StdEncoding, w)
	if _, err := io.Copy(enc, r); err != nil {
		return err
	}
	return enc.Close()
}
