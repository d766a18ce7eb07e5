package cassette

import (
	"errors"
	"net/http"
	"strings"

	"github.com/llmtck/llmtck/internal/inflate"
)

// finish gives every reader's output the same shape: non-nil headers, nil
// for empty bodies, and bodies undone from gzip or deflate when the headers
// say so (openllmetry keeps gzip bodies as !!binary). The Content-Encoding
// header is kept; Encode drops it once it no longer matches the body.
func finish(name string, f Format, ins []*Interaction) (*Cassette, error) {
	budget := maxDecoded
	for i, in := range ins {
		for _, s := range []struct {
			side   string
			header *http.Header
			body   *[]byte
		}{
			{"request", &in.Request.Header, &in.Request.Body},
			{"response", &in.Response.Header, &in.Response.Body},
		} {
			if *s.header == nil {
				*s.header = http.Header{}
			}
			b, err := decodeBody(*s.header, *s.body, &budget)
			if err != nil {
				return nil, errorf(name, 0, "interaction %d %s body: %v", i, s.side, err)
			}
			if len(b) == 0 {
				b = nil
			}
			*s.body = b
		}
	}
	return &Cassette{Path: name, Format: f, Interactions: ins}, nil
}

// maxDecoded is how many bytes all of a cassette's decompressed bodies may
// add up to, against gzip bombs. A variable so tests can lower it.
var maxDecoded = MaxSize

var errTooLarge = errors.New("decompressed bodies are larger than the size limit")

// decodeBody undoes a single gzip or deflate content coding when the body
// really is in it. A body that fails to decompress is kept as it is.
func decodeBody(h http.Header, body []byte, budget *int) ([]byte, error) {
	var out []byte
	var err error
	switch coding(h.Values("Content-Encoding")) {
	case "gzip", "x-gzip":
		if !isGzip(body) {
			return body, nil
		}
		out, err = inflate.Gzip(body, int64(*budget))
	case "deflate":
		if !isZlib(body) {
			return body, nil
		}
		out, err = inflate.Zlib(body, int64(*budget))
	default:
		return body, nil
	}
	if errors.Is(err, inflate.ErrTooLarge) {
		return nil, errTooLarge
	}
	if err != nil {
		return body, nil
	}
	*budget -= len(out)
	return out, nil
}

// coding returns a Content-Encoding header's coding when it is a single one.
func coding(v []string) string {
	if len(v) != 1 {
		return ""
	}
	return strings.ToLower(strings.TrimSpace(v[0]))
}

func isGzip(b []byte) bool { return len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b }

// isZlib checks the RFC 1950 header HTTP's "deflate" means.
func isZlib(b []byte) bool {
	return len(b) >= 2 && b[0]&0x0f == 8 && (int(b[0])<<8|int(b[1]))%31 == 0
}

// encodingMatches reports whether a Content-Encoding header still describes
// body. Encode drops one that does not, since go-vcr replays body bytes as
// they are.
func encodingMatches(contentEncoding []string, body []byte) bool {
	switch coding(contentEncoding) {
	case "gzip", "x-gzip":
		return isGzip(body)
	case "deflate":
		return isZlib(body)
	}
	return true
}
