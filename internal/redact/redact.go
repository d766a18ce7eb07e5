// Package redact removes credentials from recorded HTTP traffic and refuses
// to let anything that still looks like a secret reach disk.
package redact

import (
	"net/http"
	"net/url"
	"strings"
)

// Mask replaces every redacted value. It is kept (rather than the header
// dropped) so a cassette still shows that a credential was sent.
const Mask = "REDACTED"

// Policy names the headers and query parameters that hold credentials or
// account identifiers. Names are matched case-insensitively.
type Policy struct {
	Headers []string
	Query   []string
}

// Default is the policy of docs/provider-rules.md §6: API keys and bearer
// tokens of every provider, cookies, AWS session tokens, and the organisation
// and project ids that providers echo in responses.
func Default() Policy {
	return Policy{
		Headers: []string{
			"x-api-key", "authorization", "api-key", "x-goog-api-key",
			"proxy-authorization", "cookie", "set-cookie",
			"x-amz-security-token", "ocp-apim-subscription-key",
			"anthropic-organization-id", "openai-organization", "openai-project",
			"x-goog-user-project",
		},
		// key: Gemini; access_token: Google OAuth; X-Amz-*: presigned AWS URLs;
		// api_key and its spellings: OpenAI-compatible servers.
		Query: []string{"key", "api_key", "apikey", "api-key", "access_token", "X-Amz-Signature", "X-Amz-Credential", "X-Amz-Security-Token"},
	}
}

// WithHeaders returns a copy of p that also redacts the named headers.
func (p Policy) WithHeaders(names ...string) Policy {
	p.Headers = append(append([]string(nil), p.Headers...), names...)
	return p
}

func (p Policy) redactsHeader(name string) bool {
	for _, h := range p.Headers {
		// Header names are ASCII (net/http refuses others): a name of
		// another length is another name.
		if len(h) == len(name) && strings.EqualFold(h, name) {
			return true
		}
	}
	return false
}

// Header returns a copy of h in which every value of a redacted header is
// Mask. The original is not modified, since it may still be in flight.
func (p Policy) Header(h http.Header) http.Header {
	if h == nil {
		return nil
	}
	// One array holds every value, as http.Header.Clone does.
	n := 0
	for _, vs := range h {
		n += len(vs)
	}
	values := make([]string, n)
	out := make(http.Header, len(h))
	for k, vs := range h {
		if vs == nil {
			out[k] = nil
			continue
		}
		v := values[:len(vs):len(vs)]
		values = values[len(vs):]
		if p.redactsHeader(k) {
			for i := range v {
				v[i] = Mask
			}
		} else {
			copy(v, vs)
		}
		out[k] = v
	}
	return out
}

// URL masks the values of redacted query parameters and leaves every other
// byte of raw as it was, so the rest of the query still matches on replay.
func (p Policy) URL(raw string) string {
	out, _ := p.maskQuery(raw, func(string) bool { return true })
	return out
}

// maskQuery masks the values of redacted query parameters for which
// should says yes, and counts them.
func (p Policy) maskQuery(raw string, should func(value string) bool) (string, int) {
	before, query, ok := strings.Cut(raw, "?")
	if !ok || len(p.Query) == 0 {
		return raw, 0
	}
	query, fragment, hasFragment := strings.Cut(query, "#")
	params := strings.Split(query, "&")
	n := 0
	for i, param := range params {
		name, value, hasValue := strings.Cut(param, "=")
		if unescaped, err := url.QueryUnescape(name); err == nil {
			name = unescaped
		}
		if unescaped, err := url.QueryUnescape(value); err == nil {
			value = unescaped
		}
		for _, q := range p.Query {
			if strings.EqualFold(q, name) {
				if hasValue && value != Mask && should(value) {
					params[i] = param[:strings.IndexByte(param, '=')+1] + Mask
					n++
				}
				break
			}
		}
	}
	if n == 0 {
		return raw, 0
	}
	out := before + "?" + strings.Join(params, "&")
	if hasFragment {
		out += "#" + fragment
	}
	return out, n
}
