package proxy

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"io"
	"unicode/utf8"

	"github.com/llmtck/llmtck/internal/cassette"
)

// encodeSpilled writes an interaction whose response body is too large to
// hold in memory. The cassette encoder lays out everything else around a
// placeholder body, and the body is streamed in the placeholder's place: as
// a double-quoted YAML string when it is UTF-8, else as !!binary base64 —
// both forms stock go-vcr reads back byte for byte.
func encodeSpilled(w io.Writer, in *cassette.Interaction, body *bodyBuffer) error {
	var id [8]byte
	rand.Read(id[:])
	marker := "llmtck-spilled-body-" + hex.EncodeToString(id[:])
	cp := *in
	cp.Response.Body = []byte(marker)
	var frame bytes.Buffer
	if err := cassette.EncodeInteraction(&frame, &cp); err != nil {
		return err
	}
	before, after, ok := bytes.Cut(frame.Bytes(), []byte("\n    body: "+marker+"\n"))
	if !ok {
		return errors.New("internal error: the cassette encoder did not write the body placeholder as expected")
	}
	if _, err := w.Write(append(before, "\n    body: "...)); err != nil {
		return err
	}
	var err error
	if body.UTF8() {
		err = writeDoubleQuoted(w, body.Reader())
	} else {
		err = writeBinary(w, body.Reader())
	}
	if err != nil {
		return err
	}
	_, err = w.Write(append([]byte("\n"), after...))
	return err
}

// writeDoubleQuoted streams UTF-8 text from r as one YAML double-quoted
// scalar, escaping what YAML would otherwise read differently.
func writeDoubleQuoted(w io.Writer, r io.Reader) error {
	const hexDigits = "0123456789ABCDEF"
	in := make([]byte, 64<<10)
	chunk := make([]byte, 0, len(in)+utf8.UTFMax)
	out := make([]byte, 0, 80<<10)
	out = append(out, '"')
	var carry []byte // an incomplete rune from the previous read
	for {
		n, rerr := r.Read(in)
		chunk = append(append(chunk[:0], carry...), in[:n]...)
		carry = nil
		for i := 0; i < len(chunk); {
			// A run of bytes written as they are, copied at once.
			j := i
			for j < len(chunk) && plainQuoted[chunk[j]] {
				j++
			}
			if j > i {
				out = append(out, chunk[i:j]...)
				i = j
				continue
			}
			c := chunk[i]
			switch {
			case c == '"' || c == '\\':
				out = append(out, '\\', c)
			case c == '\n':
				out = append(out, '\\', 'n')
			case c == '\r':
				out = append(out, '\\', 'r')
			case c == '\t':
				out = append(out, '\\', 't')
			case c < 0x80:
				out = append(out, '\\', 'x', hexDigits[c>>4], hexDigits[c&15])
			default:
				if !utf8.FullRune(chunk[i:]) && rerr == nil {
					carry = append([]byte(nil), chunk[i:]...)
					i = len(chunk)
					continue
				}
				r, size := utf8.DecodeRune(chunk[i:])
				if cassette.PrintableRune(r) {
					out = append(out, chunk[i:i+size]...)
				} else {
					out = append(out, '\\', 'u', hexDigits[r>>12&15], hexDigits[r>>8&15], hexDigits[r>>4&15], hexDigits[r&15])
				}
				i += size
				continue
			}
			i++
		}
		if len(out) > 64<<10 {
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
	out = append(out, '"')
	_, err := w.Write(out)
	return err
}

// plainQuoted marks the bytes a double-quoted scalar holds as they are.
var plainQuoted = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

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
