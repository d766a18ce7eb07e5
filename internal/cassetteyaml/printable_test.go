package cassetteyaml

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzASCIIPrintable holds the eight-bytes-at-once test to the byte by
// byte one.
func FuzzASCIIPrintable(f *testing.F) {
	for _, w := range []uint64{0, 0x2020202020202020, 0x7e7e7e7e7e7e7e7e, 0x7f41414141414141, 0x4141414141411f41, 0x80414141414141ff, 0x4142434445464748} {
		f.Add(w)
	}
	f.Fuzz(func(t *testing.T, w uint64) {
		want := true
		for k := range 8 {
			if c := byte(w >> (8 * k)); c < 0x20 || c >= 0x7f {
				want = false
			}
		}
		if got := asciiPrintable(w); got != want {
			t.Fatalf("asciiPrintable(%#016x) = %v, want %v", w, got, want)
		}
	})
}

// FuzzNotBlock holds the eight-bytes-at-once block test to the byte by
// byte one: it never passes a byte a block cannot hold as it is, and it
// marks one it could only after a control byte or a byte above 0x7e.
func FuzzNotBlock(f *testing.F) {
	for _, w := range []uint64{0, 0x0a0a0a0a0a0a0a0a, 0x7e0a7e0a7e0a7e0a, 0x200a200a200a200a, 0x41410d4141414141, 0x0a414141414141ff, 0x2009414141414141} {
		f.Add(w)
	}
	f.Fuzz(func(t *testing.T, w uint64) {
		marked := notBlock(w)
		control := false
		for k := range 8 {
			c := byte(w >> (8 * k))
			ok := c >= 0x20 && c < 0x7f || c == '\n'
			switch m := marked>>(8*k+7)&1 == 1; {
			case !ok && !m:
				t.Fatalf("notBlock(%#016x) passes byte %d (%#02x)", w, k, c)
			case ok && m && !control:
				t.Fatalf("notBlock(%#016x) marks byte %d (%#02x) after plain bytes only", w, k, c)
			}
			control = control || c < 0x20 || c > 0x7e
		}
	})
}

// TestPrintableFindsEveryByte plants one byte a quoted scalar may not hold
// as it is at every place of a string long enough for the 64-byte and the
// 8-byte steps and the byte-by-byte tail, and asks printable to find it.
func TestPrintableFindsEveryByte(t *testing.T) {
	plain := []byte(strings.Repeat(`{"a":"b c"}`, 7)) // 77 bytes
	for _, c := range []byte{0x00, 0x09, 0x0a, 0x1f, 0x7f} {
		for at := range plain {
			s := append([]byte(nil), plain...)
			s[at] = c
			if Printable(string(s), false) {
				t.Errorf("printable passes %#02x at byte %d of %d", c, at, len(s))
			}
		}
	}
	if !Printable(string(plain), false) {
		t.Error("printable refuses plain text")
	}
}

// TestBlockTextFindsEveryByte is TestPrintableFindsEveryByte for the text
// of a literal block, whose line breaks are plain: one byte a block may not
// hold, planted at every place of text with line breaks all through it, is
// found; the line breaks alone are not.
func TestBlockTextFindsEveryByte(t *testing.T) {
	plain := []byte(strings.Repeat("data: {}\n\n", 9)) // 90 bytes
	for _, c := range []byte{0x00, 0x09 + 0x80, 0x0d, 0x1f, 0x7f, 0x0b} {
		for at := range plain {
			s := append([]byte(nil), plain...)
			s[at] = c
			if BlockText(s) {
				t.Errorf("BlockText passes %#02x at byte %d of %d", c, at, len(s))
			}
		}
	}
	if !BlockText(plain) || !BlockText([]byte(strings.Repeat("\n", 70))) {
		t.Error("BlockText refuses plain lines")
	}
}

// FuzzPrintable holds printable, which skips 64 and 8 bytes at a time, to
// a reading of s rune by rune.
func FuzzPrintable(f *testing.F) {
	long := strings.Repeat("abcdefgh", 9)
	for _, s := range []string{"", "plain", "a\tb", "a\nb", long + "\x7f", long[:63] + "\x1f" + long, long + "é\u2028", "\xef\xbb\xbf" + long, long[:57] + "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, block := range []bool{false, true} {
			want := utf8.ValidString(s)
			for _, r := range s {
				if r < 0x80 {
					want = want && (r >= 0x20 && r < 0x7f || block && (r == '\n' || r == '\t'))
				} else {
					want = want && PrintableRune(r)
				}
			}
			if got := Printable(s, block); got != want {
				t.Fatalf("Printable(%q, %v) = %v, want %v", s, block, got, want)
			}
		}
	})
}

// FuzzPrintableIsUTF8 holds what the recorder's body tracking relies on
// when it looks for UTF-8 only once BlockText has failed: printable text,
// in a block or not, is UTF-8.
func FuzzPrintableIsUTF8(f *testing.F) {
	for _, s := range []string{"", "plain", "é☃\n", "\xff", "\xed\xa0\x80", "\xef\xbf\xbd", "\xc0\xaf", "a\xe2\x82"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, block := range []bool{false, true} {
			if Printable(s, block) && !utf8.ValidString(s) {
				t.Fatalf("Printable(%q, %v) but it is not UTF-8", s, block)
			}
		}
	})
}

// FuzzAppendBlockLinesText holds the one-pass writer to the two it stands
// for: the same lines as AppendBlockLines, and the same answer as BlockText,
// whatever the text (a rune cut off at its end included).
func FuzzAppendBlockLinesText(f *testing.F) {
	for _, s := range []string{"", "data: {}\n\n", "\tx\n", "a\r\nb", "é ☃\n\xe2\x82", "\x7f\n", "\n\n", strings.Repeat("abcdefgh", 9) + "\x01", "\u2028\n", "x\xff"} {
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, text []byte, lineStart bool) {
		got, gotAt, ok := AppendBlockLinesText(nil, text, 4, lineStart)
		want, wantAt := AppendBlockLines(nil, text, 4, lineStart)
		if !bytes.Equal(got, want) || gotAt != wantAt {
			t.Fatalf("lines %q, %v; AppendBlockLines %q, %v", got, gotAt, want, wantAt)
		}
		if ok != BlockText(text) {
			t.Fatalf("%q: ok %v, BlockText %v", text, ok, BlockText(text))
		}
	})
}
