package reqmatch

import "testing"

// FuzzPlainTarget holds the fast path of Target to what parsing the URL
// gives.
func FuzzPlainTarget(f *testing.F) {
	for _, s := range []string{"https://api.anthropic.com/v1/messages", "http://h/a b", "http://h/x:y@z", "http://h/a;b=c", "http://h//x", "http://h/x/../y", "http://h/é", "http://h", "http://h/a+b!$&'()*,=~", "mailto:x/y", "http://u@h/x", "http://[::1]:80/p", "HTTP://h/x", "http://h./x", "http:///x", "http://h:80:90/x", "http://-/x", "http://h::1/x", "http://h:/x", "http://h:abc/x", "https://api.anthropic.com/v1/messages?beta=true", "http://h/x?", "http://h/x?b=1&a=2", "http://h/x?a=2&a=1&b=", "http://h/x?a", "http://h/x?a=1&&b=2", "http://h/x?a=%41", "http://h/x?a=b+c", "http://h/x?=1", "http://h/x?a=1#f", "http://h/x?a=1;b=2", "http://h/x?a=1?b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Target(s), parsedTarget(s); got != want {
			t.Fatalf("target(%q) = %q, want %q", s, got, want)
		}
	})
}
