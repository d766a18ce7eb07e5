package cassette

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// harFile is the part of HAR 1.2 a cassette needs.
type harFile struct {
	Log *struct {
		Entries []harEntry `json:"entries"`
	} `json:"log"`
}

type harEntry struct {
	Time    float64 `json:"time"` // milliseconds
	Request struct {
		Method   string      `json:"method"`
		URL      string      `json:"url"`
		Headers  []harHeader `json:"headers"`
		PostData *struct {
			Text     string `json:"text"`
			Encoding string `json:"encoding"` // not in 1.2, but some tools write "base64"
			Params   []struct {
				Name  string `json:"name"`
				Value string `json:"value"`
			} `json:"params"`
		} `json:"postData"`
	} `json:"request"`
	Response struct {
		Status     int         `json:"status"`
		StatusText string      `json:"statusText"`
		Headers    []harHeader `json:"headers"`
		Content    struct {
			Text     string `json:"text"`
			Encoding string `json:"encoding"`
		} `json:"content"`
	} `json:"response"`
}

type harHeader struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// readHAR reads HAR 1.2 (browser dev tools, proxies). Bodies are
// content.text (base64-decoded when content.encoding says so) and
// postData.text or its params. HTTP/2 pseudo-headers (":authority" …) are
// left out: they are not header fields and the URL and status hold them.
func readHAR(name string, data []byte) ([]*Interaction, error) {
	data = trimBOM(data)
	var f harFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, jsonError(name, data, err)
	}
	if f.Log == nil {
		return nil, errorf(name, 1, "expected a HAR object with `log.entries`, found no `log`")
	}
	out := make([]*Interaction, 0, len(f.Log.Entries))
	for i, e := range f.Log.Entries {
		in := &Interaction{
			Request: Request{
				Method: e.Request.Method,
				URL:    e.Request.URL,
				Header: harHeaders(e.Request.Headers),
			},
			Response: Response{
				Status:     e.Response.Status,
				StatusText: statusText(e.Response.Status, e.Response.StatusText),
				Header:     harHeaders(e.Response.Headers),
				Duration:   time.Duration(e.Time * float64(time.Millisecond)),
			},
		}
		if pd := e.Request.PostData; pd != nil {
			body, err := harText(pd.Text, pd.Encoding)
			if err != nil {
				return nil, errorf(name, 0, "log.entries[%d].request.postData.text: %v", i, err)
			}
			if body == nil && len(pd.Params) > 0 {
				form := url.Values{}
				for _, p := range pd.Params {
					form.Add(p.Name, p.Value)
				}
				body = []byte(form.Encode())
			}
			in.Request.Body = body
		}
		body, err := harText(e.Response.Content.Text, e.Response.Content.Encoding)
		if err != nil {
			return nil, errorf(name, 0, "log.entries[%d].response.content.text: %v", i, err)
		}
		if in.Response.Header.Get("Content-Encoding") != "" {
			// Polly.JS keeps a compressed body as a JSON list of hex chunks.
			if b, ok := hexChunks(body); ok {
				body = b
			}
		}
		in.Response.Body = body
		out = append(out, in)
	}
	return out, nil
}

func harText(text, encoding string) ([]byte, error) {
	if strings.EqualFold(encoding, "base64") {
		b, err := decodeBase64(text)
		if err != nil {
			return nil, errors.New("invalid base64: " + err.Error())
		}
		return b, nil
	}
	return bodyBytes(text), nil
}

// hexChunks decodes a JSON list of hex strings into the bytes they spell.
func hexChunks(text []byte) ([]byte, bool) {
	var chunks []string
	if len(text) == 0 || text[0] != '[' || json.Unmarshal(text, &chunks) != nil {
		return nil, false
	}
	var out []byte
	for _, c := range chunks {
		b, err := hex.DecodeString(c)
		if err != nil {
			return nil, false
		}
		out = append(out, b...)
	}
	return out, true
}

func harHeaders(hs []harHeader) http.Header {
	h := make(http.Header, len(hs))
	for _, kv := range hs {
		if strings.HasPrefix(kv.Name, ":") {
			continue
		}
		k := http.CanonicalHeaderKey(kv.Name)
		h[k] = append(h[k], kv.Value)
	}
	return h
}

// jsonError turns an encoding/json error into an *Error at its line.
func jsonError(name string, data []byte, err error) *Error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return errorf(name, lineAt(data, int(syn.Offset)), "invalid JSON: %v", syn)
	case errors.As(err, &typ):
		where := typ.Field
		if where == "" {
			where = "the top"
		}
		return errorf(name, lineAt(data, int(typ.Offset)), "%s: expected %s, found a JSON %s", where, typ.Type, typ.Value)
	}
	if bytes.HasSuffix(bytes.TrimSpace(data), []byte("}")) {
		return errorf(name, 0, "invalid JSON: %v", err)
	}
	return errorf(name, lineAt(data, len(data)), "invalid JSON: %v (truncated?)", err)
}
