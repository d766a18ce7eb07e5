package cassette

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// readHTTPRR reads an httprr trace (rsc.io/httprr, used by langchaingo):
// "httprr trace v1\n", then records of "<reqlen> <resplen>\n" followed by
// the raw HTTP request and raw HTTP response. Chunked bodies are decoded.
func readHTTPRR(name string, data []byte) ([]*Interaction, error) {
	if !bytes.HasPrefix(data, []byte(httprrMagic)) {
		return nil, errorf(name, 1, "expected the header %q", strings.TrimSpace(httprrMagic))
	}
	pos, line := len(httprrMagic), 2
	var out []*Interaction
	for pos < len(data) {
		rec := len(out)
		nl := bytes.IndexByte(data[pos:], '\n')
		if nl < 0 {
			return nil, errorf(name, line, "record %d: expected a `<request bytes> <response bytes>` line, found %q", rec, clip(string(data[pos:]), 40))
		}
		head := string(data[pos : pos+nl])
		reqLen, respLen, ok := recordLengths(head)
		if !ok {
			return nil, errorf(name, line, "record %d: expected a `<request bytes> <response bytes>` line, found %q", rec, clip(head, 40))
		}
		pos += nl + 1
		if left := len(data) - pos; reqLen > left || respLen > left-reqLen {
			return nil, errorf(name, line, "record %d: truncated: needs %d bytes, only %d left", rec, reqLen+respLen, left)
		}
		reqBytes := data[pos : pos+reqLen]
		respBytes := data[pos+reqLen : pos+reqLen+respLen]
		in, err := httprrRecord(reqBytes, respBytes)
		if err != nil {
			return nil, errorf(name, line+1, "record %d: %v", rec, err)
		}
		out = append(out, in)
		line += 1 + bytes.Count(data[pos:pos+reqLen+respLen], []byte{'\n'})
		pos += reqLen + respLen
	}
	return out, nil
}

func recordLengths(head string) (req, resp int, ok bool) {
	f := strings.Split(head, " ")
	if len(f) != 2 {
		return 0, 0, false
	}
	req, err1 := strconv.Atoi(f[0])
	resp, err2 := strconv.Atoi(f[1])
	return req, resp, err1 == nil && err2 == nil && req >= 0 && resp >= 0
}

func httprrRecord(reqBytes, respBytes []byte) (*Interaction, error) {
	rd := bytes.NewReader(reqBytes)
	br := bufio.NewReader(rd)
	req, err := http.ReadRequest(br)
	if err != nil {
		return nil, fmt.Errorf("request: %v", err)
	}
	reqBody, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, fmt.Errorf("request body: %v", err)
	}
	if n := br.Buffered() + rd.Len(); n > 0 {
		return nil, fmt.Errorf("request has %d bytes after its body", n)
	}
	rd = bytes.NewReader(respBytes)
	br = bufio.NewReader(rd)
	resp, err := http.ReadResponse(br, req)
	if err != nil {
		return nil, fmt.Errorf("response: %v", err)
	}
	respBody, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("response body: %v", err)
	}
	if n := br.Buffered() + rd.Len(); n > 0 {
		return nil, fmt.Errorf("response has %d bytes after its body", n)
	}
	return &Interaction{
		Request: Request{
			Method: req.Method,
			URL:    requestURL(req),
			Header: req.Header,
			Body:   reqBody,
		},
		Response: Response{
			Status:     resp.StatusCode,
			StatusText: resp.Status,
			Header:     resp.Header,
			Body:       respBody,
		},
	}, nil
}

// requestURL keeps the request target as written when it is absolute, as
// httprr writes it; an origin-form target gets the Host header (and http,
// since the trace does not say).
func requestURL(req *http.Request) string {
	if strings.Contains(req.RequestURI, "://") {
		return req.RequestURI
	}
	return "http://" + req.Host + req.RequestURI
}
