package rawjson

import (
	"bytes"
	"encoding/binary"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// unquote is String for a string with escapes, decoded as encoding/json
// decodes one (FuzzString holds it to that): each byte of invalid UTF-8 and
// each lone surrogate becomes U+FFFD. It is not json.Unmarshal, which runs
// its scanner over the whole string before decoding it, so an answer's text
// would be read twice (BenchmarkString).
func unquote(raw []byte) (string, bool) {
	raw = bytes.TrimRight(raw, " \t\r\n") // as json.Unmarshal, which allows space after the value
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	s := raw[1 : len(raw)-1]
	var b strings.Builder
	b.Grow(len(s))
	start := 0 // s[start:i] goes out as it is
	for i := 0; i < len(s); {
		for len(s)-i >= 8 && asIsWord(binary.LittleEndian.Uint64(s[i:])) {
			i += 8
		}
		for i < len(s) && asIs[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
		switch c := s[i]; {
		case c == '\\':
			b.Write(s[start:i])
			n := writeEscape(&b, s[i:])
			if n == 0 {
				return "", false
			}
			i += n
			start = i
		case c == '"' || c < 0x20:
			return "", false
		default:
			r, size := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && size == 1 {
				b.Write(s[start:i])
				b.WriteRune(utf8.RuneError)
				start = i + 1
			}
			i += size
		}
	}
	b.Write(s[start:])
	return b.String(), true
}

// asIs marks the bytes that stand for themselves in a JSON string: ASCII
// but for the quote, the backslash and control bytes.
var asIs = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// asIsWord reports whether each of the eight bytes in w is asIs: no
// control byte, no byte above ASCII, no quote and no backslash.
func asIsWord(w uint64) bool {
	quote, backslash := w^(ones*'"'), w^(ones*'\\')
	return (controlBits(w)|w|(quote-ones)&^quote|(backslash-ones)&^backslash)&highs == 0
}

// writeEscape writes the character of the escape s starts with and returns
// the escape's length, 0 when s starts with none.
func writeEscape(b *strings.Builder, s []byte) int {
	if len(s) < 2 {
		return 0
	}
	switch c := s[1]; c {
	case '"', '\\', '/':
		b.WriteByte(c)
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'u':
		r := hex4(s)
		if r < 0 {
			return 0
		}
		if utf16.IsSurrogate(r) {
			if pair := utf16.DecodeRune(r, hex4(s[6:])); pair != unicode.ReplacementChar {
				b.WriteRune(pair)
				return 12
			}
			r = unicode.ReplacementChar // a lone half: what follows is read on its own
		}
		b.WriteRune(r)
		return 6
	default:
		return 0
	}
	return 2
}

// hex4 is the code of the \uXXXX escape s starts with, or -1.
func hex4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range s[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}
