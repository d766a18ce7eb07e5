package cassette

import (
	"bytes"
	"net/http"
	"os"
	"testing"
	"time"
)

func FuzzZZSnapshot(f *testing.F) {
	var out bytes.Buffer
	for _, s := range seeds(f) {
		for _, fm := range Formats {
			c, err := ParseAs("x", s, fm)
			if err != nil {
				continue
			}
			for _, in := range c.Interactions {
				EncodeInteraction(&out, in)
			}
		}
	}
	for i, s := range awkward {
		in := &Interaction{
			Request: Request{Method: "POST", URL: s, Header: http.Header{http.CanonicalHeaderKey("X-" + s): {s}}, Body: []byte(s)},
			Response: Response{Status: 200, StatusText: s, Header: http.Header{"X-Value": {s, "X-" + s}, "Content-Length": {"3"}}, Body: []byte(s),
				Duration: time.Duration(i) * 1e6, EventOffsets: []time.Duration{time.Duration(i), time.Duration(i * 7e5)}},
		}
		EncodeInteraction(&out, in)
	}
	os.WriteFile(os.Getenv("SNAP"), out.Bytes(), 0o644)
	f.Fuzz(func(t *testing.T, b []byte) {})
}
