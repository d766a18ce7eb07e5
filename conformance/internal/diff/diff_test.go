package diff

import (
	"strings"
	"testing"
)

func TestByteDiff(t *testing.T) {
	if d := Bytes([]byte("same"), []byte("same")); d != "" {
		t.Errorf("equal inputs: %q", d)
	}
	d := Bytes([]byte("0123456789abcdefghijklmnopqrstuvwxyz0123456789"), []byte("0123456789abcdefghijKlmnopqrstuvwxyz0123456789"))
	for _, want := range []string{"first difference at byte 20", `-want: …"456789abcdefghijklmnopqrstuvwxyz"…`, `+got:  …"456789abcdefghijKlmnopqrstuvwxyz"…`} {
		if !strings.Contains(d, want) {
			t.Errorf("diff lacks %q:\n%s", want, d)
		}
	}
	if d := Bytes([]byte("abc"), []byte("abcd")); !strings.Contains(d, "byte 3 (want 3 bytes, got 4)") {
		t.Errorf("length diff: %s", d)
	}
}
