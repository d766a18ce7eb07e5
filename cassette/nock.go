package cassette

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// nockDef is one recorded call as nock's recorder writes it
// (nock.recorder.rec({output_objects: true}), nockBack fixtures).
type nockDef struct {
	Scope            string          `json:"scope"`
	Method           string          `json:"method"`
	Path             string          `json:"path"`
	Body             json.RawMessage `json:"body"`
	Status           int             `json:"status"`
	Response         json.RawMessage `json:"response"`
	RawHeaders       json.RawMessage `json:"rawHeaders"`
	ReqHeaders       json.RawMessage `json:"reqheaders"`
	ResponseIsBinary bool            `json:"responseIsBinary"`
}

// readNock reads nock's recordings: a JSON array of call definitions. The
// URL is scope + path; a JSON request or response body is kept as the JSON
// recorded; a response nock kept as hex — one hex string when
// responseIsBinary, or a list of hex chunks for a compressed body — is
// decoded to its bytes.
func readNock(name string, data []byte) ([]*Interaction, error) {
	data = trimBOM(data)
	var defs []nockDef
	if err := json.Unmarshal(data, &defs); err != nil {
		return nil, jsonError(name, data, err)
	}
	out := make([]*Interaction, 0, len(defs))
	for i, d := range defs {
		where := fmt.Sprintf("[%d]", i)
		if d.Scope == "" || d.Method == "" {
			return nil, errorf(name, 0, "%s: expected a nock definition with `scope` and `method`", where)
		}
		in := &Interaction{
			Request:  Request{Method: strings.ToUpper(d.Method), URL: strings.TrimSuffix(nockScope(d.Scope), "/") + d.Path},
			Response: Response{Status: d.Status, StatusText: statusText(d.Status, "")},
		}
		var err error
		if in.Request.Header, err = nockHeaderObject(d.ReqHeaders); err != nil {
			return nil, errorf(name, 0, "%s.reqheaders: %v", where, err)
		}
		if in.Response.Header, err = nockRawHeaders(d.RawHeaders); err != nil {
			return nil, errorf(name, 0, "%s.rawHeaders: %v", where, err)
		}
		if in.Request.Body, err = nockBody(d.Body, false); err != nil {
			return nil, errorf(name, 0, "%s.body: %v", where, err)
		}
		hexChunks := d.ResponseIsBinary || in.Response.Header.Get("Content-Encoding") != ""
		if in.Response.Body, err = nockBody(d.Response, hexChunks); err != nil {
			return nil, errorf(name, 0, "%s.response: %v", where, err)
		}
		out = append(out, in)
	}
	return out, nil
}

// nockScope drops the default port nock writes into the scope
// ("https://api.openai.com:443").
func nockScope(s string) string {
	if strings.HasPrefix(s, "https://") {
		return strings.TrimSuffix(s, ":443")
	}
	return strings.TrimSuffix(s, ":80")
}

// nockBody turns a recorded body into bytes: a JSON string is its text
// (its hex when hexed), an array of strings is hex chunks when hexed, and
// any other JSON value is the JSON itself.
func nockBody(raw json.RawMessage, hexed bool) ([]byte, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	switch raw[0] {
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		if hexed {
			if b, err := hex.DecodeString(s); err == nil {
				return b, nil
			}
		}
		return bodyBytes(s), nil
	case '[':
		var chunks []string
		if hexed && json.Unmarshal(raw, &chunks) == nil {
			var out []byte
			for i, c := range chunks {
				b, err := hex.DecodeString(c)
				if err != nil {
					return nil, fmt.Errorf("chunk %d: not hex: %v", i, err)
				}
				out = append(out, b...)
			}
			return out, nil
		}
	}
	return append([]byte(nil), raw...), nil
}

// nockRawHeaders reads rawHeaders: a flat list of names and values, or an
// object of them (older nock versions).
func nockRawHeaders(raw json.RawMessage) (http.Header, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return http.Header{}, nil
	}
	if raw[0] == '{' {
		return nockHeaderObject(raw)
	}
	var flat []string
	if err := json.Unmarshal(raw, &flat); err != nil {
		return nil, fmt.Errorf("expected a list of header names and values: %v", err)
	}
	if len(flat)%2 != 0 {
		return nil, fmt.Errorf("%d entries: expected names and values in pairs", len(flat))
	}
	h := make(http.Header, len(flat)/2)
	for i := 0; i+1 < len(flat); i += 2 {
		k := http.CanonicalHeaderKey(flat[i])
		h[k] = append(h[k], flat[i+1])
	}
	return h, nil
}

// nockHeaderObject reads {"name": "value" | ["values"]}.
func nockHeaderObject(raw json.RawMessage) (http.Header, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return http.Header{}, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("expected an object of headers: %v", err)
	}
	h := make(http.Header, len(m))
	for k, v := range m {
		ck := http.CanonicalHeaderKey(k)
		var one string
		var many []string
		switch {
		case json.Unmarshal(v, &one) == nil:
			h[ck] = append(h[ck], one)
		case json.Unmarshal(v, &many) == nil:
			h[ck] = append(h[ck], many...)
		default:
			h[ck] = append(h[ck], string(v))
		}
	}
	return h, nil
}
