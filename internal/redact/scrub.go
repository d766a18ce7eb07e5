package redact

import (
	"net/http"
	"strings"
)

// Scrub returns data with every credential ScanAll finds replaced by Mask,
// padded with X to the credential's length so byte offsets and
// Content-Length stay right, and how many it replaced. data is not
// modified; when nothing is found Scrub returns data itself.
func Scrub(data []byte) ([]byte, int) {
	return replaceTokens(data, func(token []byte, _ *Leak) string { return mask(len(token)) })
}

// replaceTokens replaces every credential ScanAll finds in data by what
// with returns for it, and counts them.
func replaceTokens(data []byte, with func(token []byte, l *Leak) string) ([]byte, int) {
	var out []byte
	n, from := 0, 0
	for {
		l := ScanAll("", data[from:])
		if l == nil {
			break
		}
		start := from + int(l.Offset)
		end := tokenEnd(data, start+len(l.Prefix))
		if out == nil {
			out = make([]byte, 0, len(data))
		}
		out = append(out, data[from:start]...)
		out = append(out, with(data[start:end], l)...)
		from, n = end, n+1
	}
	if out == nil {
		return data, 0
	}
	return append(out, data[from:]...), n
}

// tokenEnd is the end of the credential that runs on from at.
func tokenEnd(data []byte, at int) int {
	for at < len(data) && (tokenByte(data[at]) || data[at] == '.' || data[at] == '/' || data[at] == '+') {
		at++
	}
	return at
}

// mask is Mask padded with X to n bytes (Mask itself when n is shorter).
func mask(n int) string {
	return Mask + strings.Repeat("X", max(0, n-len(Mask)))
}

// Call scrubs one recorded call in place: the values of p's headers and
// query parameters are masked as the recorder masks them, unless they are
// placeholders already (test-api-key stays, so a cassette another tool
// recorded keeps matching its tests), and every credential-shaped value
// left in the URL, a header or a body is replaced by Scrub. It returns how
// many values it masked. It takes the call's parts, not a cassette's
// interaction, so that the cassette package can use this one.
func (p Policy) Call(url *string, reqHeader http.Header, reqBody *[]byte, respHeader http.Header, respBody *[]byte) int {
	live := func(v string) bool { return !Placeholder(v) }
	n := p.header(reqHeader) + p.header(respHeader)
	u, k := p.maskQuery(*url, live)
	n += k
	scrubbed, k := Scrub([]byte(u))
	*url, n = string(scrubbed), n+k
	*reqBody, k = Scrub(*reqBody)
	n += k
	*respBody, k = Scrub(*respBody)
	return n + k
}

// header masks h in place and counts the values it changed.
func (p Policy) header(h http.Header) int {
	n := 0
	for name, values := range h {
		for i, v := range values {
			switch {
			case p.redactsHeader(name) && !Placeholder(v):
				values[i] = Mask
			default:
				b, k := Scrub([]byte(v))
				if k == 0 {
					continue
				}
				values[i] = string(b)
			}
			n++
		}
		h[name] = values
	}
	return n
}
