package rawjson

import "testing"

// FuzzNoControlWord holds the eight-bytes-at-once test to the byte by byte
// one.
func FuzzNoControlWord(f *testing.F) {
	for _, w := range []uint64{0, 0x2020202020202020, 0x1f41414141414141, 0x414141414141411f, 0x80ff7f2021414141, 0x4142434445464748} {
		f.Add(w)
	}
	f.Fuzz(func(t *testing.T, w uint64) {
		want := true
		for k := range 8 {
			if byte(w>>(8*k)) < 0x20 {
				want = false
			}
		}
		if got := noControlWord(w); got != want {
			t.Fatalf("noControlWord(%#016x) = %v, want %v", w, got, want)
		}
	})
}

// FuzzNoControl holds the test of a whole string (32 bytes a turn, then 8,
// then one) to the byte by byte one, wherever in it a control byte falls.
func FuzzNoControl(f *testing.F) {
	for _, s := range []string{"", "plain text", "a\x1fb", "0123456789abcdef0123456789abcdef\n", "0123456789abcdef0123456789abcdef0123456789\t", "\x00", "0123456789abcdef01234567\x0189abcdef0123"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want := true
		for _, c := range b {
			if c < 0x20 {
				want = false
			}
		}
		if got := noControl(b); got != want {
			t.Fatalf("noControl(%q) = %v, want %v", b, got, want)
		}
	})
}
