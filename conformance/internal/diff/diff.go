package diff

import (
	"fmt"
	"strconv"

	"github.com/google/go-cmp/cmp"
)

// byteWindow is how many bytes of context a byte diff shows on each side.
const byteWindow = 16

// Bytes explains why two byte strings differ: the first differing offset
// and a short quoted window of each side around it. It returns "" when they
// are equal.
func Bytes(want, got []byte) string {
	n := min(len(want), len(got))
	at := n
	for i := 0; i < n; i++ {
		if want[i] != got[i] {
			at = i
			break
		}
	}
	if at == n && len(want) == len(got) {
		return ""
	}
	return fmt.Sprintf("first difference at byte %d (want %d bytes, got %d)\n-want: %s\n+got:  %s\n",
		at, len(want), len(got), window(want, at), window(got, at))
}

// window quotes b around offset at, marking cut ends with "…".
func window(b []byte, at int) string {
	lo, hi := max(0, at-byteWindow), min(len(b), at+byteWindow)
	s := strconv.Quote(string(b[lo:hi]))
	if lo > 0 {
		s = "…" + s
	}
	if hi < len(b) {
		s += "…"
	}
	return s
}

// Struct is a go-cmp diff of two values in the "(-want +got)" form, or
// "" when they are equal.
func Struct(want, got any, opts ...cmp.Option) string {
	d := cmp.Diff(want, got, opts...)
	if d == "" {
		return ""
	}
	return "mismatch (-want +got):\n" + d
}
