// Package cassetteyaml writes the YAML scalars of llmtck's cassette layout
// (plain, literal block, quoted, !!binary) so that yaml.v3 and the cassette
// package's fast reader read them back byte for byte; the cassette writer
// and the proxy's streaming writer share it.
package cassetteyaml

import (
	"bytes"
	"encoding/base64"
	"strings"
	"unicode/utf8"
)

// The writer picks, for every string, the first YAML form that reads back
// byte for byte through yaml.v3 (go-vcr v2.1.0's parser):
//   - plain, for short safe words such as header names and most values;
//   - a literal block (|), for multi-line text such as SSE bodies;
//   - single quotes, for one line of Printable text;
//   - double quotes with escapes, for text with control characters, CR,
//     U+2028 and the like, which no other form keeps;
//   - !!binary base64, for bytes that are not UTF-8, which YAML text cannot
//     hold at all.
// The fast reader accepts exactly these forms.

// AppendInline appends s as a one-line scalar.
func AppendInline(dst []byte, s string) []byte {
	// PlainSafe and Printable hold only for UTF-8, so the check for
	// bytes that are not (a rare body) comes after them.
	switch {
	case PlainSafe(s):
		return append(dst, s...)
	case Printable(s, false):
		dst = append(dst, '\'')
		for {
			i := strings.IndexByte(s, '\'')
			if i < 0 {
				break
			}
			dst = append(dst, s[:i+1]...)
			dst = append(dst, '\'')
			s = s[i+1:]
		}
		dst = append(dst, s...)
		return append(dst, '\'')
	case !utf8.ValidString(s):
		dst = append(dst, "!!binary "...)
		return base64.StdEncoding.AppendEncode(dst, []byte(s))
	}
	return appendDoubleQuoted(dst, s)
}

// AppendBody appends a body after "body: ", as a literal block indented
// under a key at indent columns when that form is exact, else inline.
func AppendBody(dst, body []byte, indent int) []byte {
	s := bytesString(body)
	if !blockSafe(s) {
		return AppendInline(dst, s)
	}
	text := bytes.TrimRight(body, "\n")
	trailing := len(body) - len(text)
	dst = append(dst, BlockIndicator(body[0], trailing)...)
	dst, _ = AppendBlockLines(dst, text, indent, true)
	return appendBlockEnd(dst, trailing)
}

// BlockIndicator is what opens a literal block after "body: " for text
// that starts with first and ends in trailing line breaks, up to the line
// break before its first line.
func BlockIndicator(first byte, trailing int) string {
	// The indentation cannot be guessed from a first line that starts
	// with white space.
	indicated := first == ' ' || first == '\t' || first == '\n'
	switch {
	case trailing == 0 && indicated:
		return "|2-\n"
	case trailing == 0:
		return "|-\n"
	case trailing == 1 && indicated:
		return "|2\n"
	case trailing == 1:
		return "|\n"
	case indicated:
		return "|2+\n"
	}
	return "|+\n"
}

// AppendBlockLines appends text as the lines of a literal block indented
// under a key at indent columns; an empty line stays empty, so a line break
// is written as itself. The text may come in pieces: lineStart says whether
// the last piece ended on a line break (true for the first piece), and the
// result says it for this one.
func AppendBlockLines(dst, text []byte, indent int, lineStart bool) ([]byte, bool) {
	dst, lineStart, _ = appendBlockLines(dst, text, indent, lineStart, false)
	return dst, lineStart
}

// AppendBlockLinesText is AppendBlockLines that also reports whether text
// may stand in a literal block (BlockText), each line looked at as it is
// copied. A piece must not end inside a rune.
func AppendBlockLinesText(dst, text []byte, indent int, lineStart bool) (out []byte, atLine, ok bool) {
	return appendBlockLines(dst, text, indent, lineStart, true)
}

func appendBlockLines(dst, text []byte, indent int, lineStart, check bool) ([]byte, bool, bool) {
	ok := true
	for len(text) > 0 {
		line := text
		i := bytes.IndexByte(text, '\n')
		if i >= 0 {
			line = text[:i]
		}
		if check && ok {
			ok = blockLine(line)
		}
		if len(line) > 0 {
			if lineStart {
				dst = appendSpaces(dst, indent+2)
			}
			dst = append(dst, line...)
			lineStart = false
		}
		if i < 0 {
			break
		}
		dst = append(dst, '\n')
		lineStart = true
		text = text[i+1:]
	}
	return dst, lineStart, ok
}

// blockLine is BlockText for a line, which holds no line break: with none
// to let through, the word-at-a-time test is the quoted scalars' cheaper
// one, and only a tab needs a second look.
func blockLine(line []byte) bool {
	for i := 0; i < len(line); i++ {
		i = skipPlain(line, i, false)
		if i == len(line) {
			break
		}
		c := line[i]
		if c >= 0x20 && c < 0x7f || c == '\t' {
			continue
		}
		if c < 0x80 {
			return false
		}
		r, n := utf8.DecodeRune(line[i:])
		if r == utf8.RuneError && n == 1 || !PrintableRune(r) {
			return false
		}
		i += n - 1
	}
	return true
}

// appendBlockEnd appends what ends a literal block whose text ended in
// trailing line breaks: keep chomping (|+) keeps the extra ones as empty
// lines, and the caller writes the last.
func appendBlockEnd(dst []byte, trailing int) []byte {
	for range trailing - 1 {
		dst = append(dst, '\n')
	}
	return dst
}

// BlockText reports whether every rune of p may stand as itself in a
// literal block: p must be UTF-8 with no CR and no character a block
// cannot hold. Writers of a body a piece at a time (the proxy's spill
// writer) check each piece of whole runes with it.
func BlockText(p []byte) bool { return Printable(p, true) }

func appendSpaces(dst []byte, n int) []byte {
	for range n {
		dst = append(dst, ' ')
	}
	return dst
}

// PlainSafe reports whether s reads back as itself as a plain scalar: it
// starts with a letter or '/' (or is a status line such as "200 OK", which
// no number or date looks like), uses no character YAML gives a meaning to,
// and is not a word YAML reads as null or a boolean.
func PlainSafe(s string) bool {
	if s == "" || !(isLetter(s[0]) || s[0] == '/' || isStatusLine(s)) || s[len(s)-1] == ' ' || s[len(s)-1] == ':' {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case plainByte[c]:
		case c == ':':
			if i+1 < len(s) && s[i+1] == ' ' {
				return false
			}
		default:
			return false
		}
	}
	if len(s) > len("false") {
		return true // longer than any word YAML reads as a null or a boolean
	}
	// s is ASCII here, so EqualFold is ToLower without the copy.
	for _, w := range [...]string{"null", "true", "false", "yes", "no", "on", "off", "y", "n"} {
		if strings.EqualFold(s, w) {
			return false
		}
	}
	return true
}

// plainByte marks the bytes a plain scalar may hold anywhere: letters,
// digits and the punctuation YAML gives no meaning inside one (':' is
// PlainSafe's to judge).
var plainByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = isLetter(byte(c)) || c >= '0' && c <= '9'
	}
	for _, c := range []byte(" -_./;,=+()*&%@~!$?<>^'\"\\") {
		t[c] = true
	}
	return t
}()

// isStatusLine reports digits, a space and a letter, as in "404 Not Found".
func isStatusLine(s string) bool {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(s) && s[i] == ' ' && isLetter(s[i+1])
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// Printable reports whether every rune of s may appear raw in a YAML scalar
// without being read as a line break or refused as a control character.
// Tab and '\n' are allowed only in blocks. Bytes that are not UTF-8 are not
// Printable.
func Printable[T string | []byte](s T, block bool) bool {
	for i := 0; i < len(s); i++ {
		i = skipPlain(s, i, block)
		if i == len(s) {
			break
		}
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			continue
		}
		if (c == '\n' || c == '\t') && block {
			continue
		}
		if c < 0x80 {
			return false
		}
		r, n := utf8.DecodeRuneInString(string(s[i:min(len(s), i+utf8.UTFMax)]))
		if r == utf8.RuneError && n == 1 || !PrintableRune(r) {
			return false
		}
		i += n - 1
	}
	return true
}

// asciiPrintable reports whether each of the eight bytes in w is Printable
// ASCII (0x20 to 0x7e).
func asciiPrintable(w uint64) bool { return notPrintable(w)&highs == 0 }

const ones, highs = 0x0101010101010101, 0x8080808080808080

// notPrintable sets the high bit of each byte of w that is not Printable
// ASCII: below 0x20 (the subtraction borrows), 0x7f (the addition carries
// into the high bit) or above it (the high bit is set). A borrow or a carry
// goes on only from such a byte, so a byte after one may be marked too:
// that only sends it to the byte by byte test. Mask the result with highs;
// a 64-byte run ORs eight words before that.
func notPrintable(w uint64) uint64 { return (w - ones*0x20) | w | (w + ones) }

// notBlock marks, in the high bit of each byte, the bytes of w that are
// neither Printable ASCII nor a line break, and may mark a byte after one
// of them (see notPrintable).
func notBlock(w uint64) uint64 {
	const lows = 0x7f7f7f7f7f7f7f7f
	x := w ^ (ones * '\n')
	breaks := ^((x&lows + lows) | x) & highs // exactly the line breaks
	return notPrintable(w) & highs &^ breaks
}

// skipPlain returns the index of the first byte at or after i that may not
// be Printable ASCII nor, in a block, a line break: most of a body is
// plain, and goes 64 bytes at a time.
func skipPlain[T string | []byte](s T, i int, block bool) int {
	if !block {
		for len(s)-i >= 64 && notPrintableRun(s[i:i+64])&highs == 0 {
			i += 64
		}
		for len(s)-i >= 8 && asciiPrintable(load64(s, i)) {
			i += 8
		}
		return i
	}
	for len(s)-i >= 64 && notBlockRun(s[i:i+64]) == 0 {
		i += 64
	}
	for len(s)-i >= 8 && notBlock(load64(s, i)) == 0 {
		i += 8
	}
	return i
}

// notPrintableRun is notPrintable of the eight words of a 64-byte run,
// ORed; notBlockRun is notBlock's. Taking the run as one slice lets the
// compiler drop the bounds checks of the eight loads.
func notPrintableRun[T string | []byte](run T) uint64 {
	_ = run[63]
	return notPrintable(load64(run, 0)) | notPrintable(load64(run, 8)) | notPrintable(load64(run, 16)) | notPrintable(load64(run, 24)) |
		notPrintable(load64(run, 32)) | notPrintable(load64(run, 40)) | notPrintable(load64(run, 48)) | notPrintable(load64(run, 56))
}

func notBlockRun[T string | []byte](run T) uint64 {
	_ = run[63]
	return notBlock(load64(run, 0)) | notBlock(load64(run, 8)) | notBlock(load64(run, 16)) | notBlock(load64(run, 24)) |
		notBlock(load64(run, 32)) | notBlock(load64(run, 40)) | notBlock(load64(run, 48)) | notBlock(load64(run, 56))
}

// load64 reads the eight bytes of s at i as a little-endian word; the
// compiler makes the shifts one load.
func load64[T string | []byte](s T, i int) uint64 {
	b := s[i : i+8]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// PrintableRune reports whether r (above ASCII) may stand as itself in a
// double-quoted scalar that both yaml.v3 and the fast reader read back:
// YAML's c-Printable minus the runes libyaml reads as line breaks (U+0085,
// U+2028, U+2029) and the byte-order mark. Writers of cassette text outside
// this package (the proxy's spill writer) must use it too.
func PrintableRune(r rune) bool {
	switch {
	case r >= 0xa0 && r <= 0xd7ff:
		return r != 0x2028 && r != 0x2029
	case r >= 0xe000 && r <= 0xfffd:
		return r != 0xfeff
	case r >= 0x10000 && r <= 0x10ffff:
		return true
	}
	return false
}

// blockSafe reports whether s can be a literal block: several lines of
// Printable text (which is UTF-8) with no CR, and some line with text on
// it.
func blockSafe(s string) bool {
	return strings.Contains(s, "\n") &&
		strings.TrimLeft(s, " \t\n") != "" &&
		Printable(s, true)
}

func appendDoubleQuoted(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst, _ = AppendEscaped(dst, s, false)
	return append(dst, '"')
}

// AppendEscaped appends s as the inside of a YAML double-quoted scalar that
// yaml.v3 and the fast reader read back as s, and returns how many bytes of
// s it took: all of them, or, when more is to come (a body written piece by
// piece), all but a UTF-8 sequence cut off at the end. Printable ASCII goes
// as it is, eight bytes at a time; quote, backslash and control bytes are
// escaped, and runes outside YAML's Printable set go as \u escapes.
func AppendEscaped[T string | []byte](dst []byte, s T, more bool) ([]byte, int) {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); {
		j := i
		for len(s)-j >= 8 && quotedAsIs(load64(s, j)) {
			j += 8
		}
		for j < len(s) && s[j] >= 0x20 && s[j] < 0x7f && s[j] != '"' && s[j] != '\\' {
			j++
		}
		if j > i {
			dst = append(dst, s[i:j]...)
			i = j
			continue
		}
		switch c := s[i]; {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\r':
			dst = append(dst, '\\', 'r')
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c < 0x80:
			dst = append(dst, '\\', 'x', hex[c>>4], hex[c&15])
		default:
			rest := s[i:min(len(s), i+utf8.UTFMax)]
			if more && !utf8.FullRune([]byte(rest)) {
				return dst, i
			}
			r, n := utf8.DecodeRune([]byte(rest))
			if PrintableRune(r) {
				dst = append(dst, s[i:i+n]...)
			} else {
				dst = append(dst, '\\', 'u', hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15])
			}
			i += n
			continue
		}
		i++
	}
	return dst, len(s)
}

// quotedAsIs reports whether each of the eight bytes in w goes into a
// double-quoted scalar as it is: Printable ASCII, neither quote nor
// backslash.
func quotedAsIs(w uint64) bool {
	quote, backslash := w^(ones*'"'), w^(ones*'\\')
	return asciiPrintable(w) && ((quote-ones)&^quote|(backslash-ones)&^backslash)&highs == 0
}
