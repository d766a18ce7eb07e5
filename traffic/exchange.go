package traffic

import (
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Exchange is one recorded request and its response, decoded.
type Exchange struct {
	Index  int    `json:"index"` // 0-based position in the cassette
	Method string `json:"method"`
	URL    string `json:"url"`
	Status int    `json:"status"`
	Wire   Wire   `json:"wire"`
	// Dialect is who served the call: the wire's own provider API
	// (DialectDirect), a cloud gateway, or another server speaking the wire.
	Dialect Dialect `json:"dialect,omitempty"`
	// RequestHeader and ResponseHeader are the recorded headers (redacted
	// values included as recorded); never nil after decoding.
	RequestHeader  http.Header `json:"request_header,omitempty"`
	ResponseHeader http.Header `json:"response_header,omitempty"`
	// Request is nil when the request had no body or could not be decoded.
	Request *Request `json:"request,omitempty"`
	// Response is nil when the response could not be decoded.
	Response *Response     `json:"response,omitempty"`
	Duration time.Duration `json:"duration,omitempty"`
	// RequestErr and ResponseErr say why a side did not decode.
	RequestErr  string `json:"request_error,omitempty"`
	ResponseErr string `json:"response_error,omitempty"`
	// RequestBody and ResponseBody are the bodies as recorded, for checks
	// that read bytes no wire decodes (a credential pasted into a prompt).
	RequestBody  []byte `json:"-"`
	ResponseBody []byte `json:"-"`
}

// Accepted reports whether the provider accepted the request (2xx).
func (e *Exchange) Accepted() bool { return e.Status >= 200 && e.Status < 300 }

// Host is the lower-case host of the exchange's URL, or "".
func (e *Exchange) Host() string { return HostOf(e.URL) }

// HostOf is the lower-case host of a URL, or "".
func HostOf(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}
