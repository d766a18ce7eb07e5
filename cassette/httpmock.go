package cassette

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// readHTTPMock reads httpmock's YAML recordings (Rust's httpmock, as rig
// records them): one document per call, separated by `---`, each a mapping
// of `when:` (method, path, query_param, header and body of the request)
// and `then:` (status, header, body, and body_encoding: base64 for bytes).
// URLs are paths only: the recording does not say which host answered.
func readHTTPMock(name string, data []byte) (out []*Interaction, err error) {
	defer func() {
		// yaml.v3 has panicked on hostile input before; never let that out.
		if r := recover(); r != nil {
			out, err = nil, errorf(name, 0, "invalid YAML: parser failed: %v", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	// One budget for the whole file, as for a single document.
	d := &yamlDoc{file: name, budget: len(data) + 1<<16}
	for i := 0; ; i++ {
		var top yaml.Node
		if err := dec.Decode(&top); errors.Is(err, io.EOF) {
			return out, nil
		} else if err != nil {
			return nil, yamlError(name, err)
		}
		if len(top.Content) == 0 {
			continue
		}
		root, err := d.node(top.Content[0])
		if err != nil {
			return nil, err
		}
		what := "document " + strconv.Itoa(i)
		fs, _, err := d.fields(root, what)
		if err != nil {
			return nil, err
		}
		for _, k := range []string{"when", "then"} {
			if _, ok := fs[k]; !ok {
				return nil, d.errorf(root, "%s has no `%s` (httpmock documents are when:/then: pairs)", what, k)
			}
		}
		in := &Interaction{}
		if err := d.httpmockRequest(fs["when"].value, what+" when", &in.Request); err != nil {
			return nil, err
		}
		if err := d.httpmockResponse(fs["then"].value, what+" then", &in.Response); err != nil {
			return nil, err
		}
		out = append(out, in)
	}
}

func (d *yamlDoc) httpmockRequest(n *yaml.Node, what string, r *Request) error {
	n, err := d.node(n)
	if err != nil {
		return err
	}
	fs, _, err := d.fields(n, what)
	if err != nil {
		return err
	}
	if r.Method, err = d.optStr(fs, "method", what); err != nil {
		return err
	}
	path, err := d.optStr(fs, "path", what)
	if err != nil {
		return err
	}
	query, err := d.nameValues(fs, "query_param", what)
	if err != nil {
		return err
	}
	r.URL = path
	if len(query) > 0 {
		q := url.Values{}
		for _, kv := range query {
			q.Add(kv[0], kv[1])
		}
		r.URL += "?" + q.Encode()
	}
	if r.Header, err = d.headerList(fs, "header", what); err != nil {
		return err
	}
	r.Body, err = d.httpmockBody(fs, what)
	return err
}

func (d *yamlDoc) httpmockResponse(n *yaml.Node, what string, r *Response) error {
	n, err := d.node(n)
	if err != nil {
		return err
	}
	fs, _, err := d.fields(n, what)
	if err != nil {
		return err
	}
	f, ok := fs["status"]
	if !ok {
		return d.errorf(n, "%s has no `status`", what)
	}
	if r.Status, err = d.integer(f.value, what+" status"); err != nil {
		return err
	}
	r.StatusText = statusText(r.Status, "")
	if r.Header, err = d.headerList(fs, "header", what); err != nil {
		return err
	}
	r.Body, err = d.httpmockBody(fs, what)
	return err
}

// httpmockBody reads `body`, base64-decoded when `body_encoding` says so.
func (d *yamlDoc) httpmockBody(fs map[string]field, what string) ([]byte, error) {
	body, err := d.optStr(fs, "body", what)
	if err != nil {
		return nil, err
	}
	enc, err := d.optStr(fs, "body_encoding", what)
	if err != nil {
		return nil, err
	}
	switch strings.ToLower(enc) {
	case "", "utf8", "utf-8", "text":
		return bodyBytes(body), nil
	case "base64":
		b, err := decodeBase64(body)
		if err != nil {
			return nil, d.errorf(fs["body"].value, "%s body: invalid base64: %v", what, err)
		}
		return b, nil
	}
	return nil, d.errorf(fs["body_encoding"].value, "%s body_encoding %q, expected base64", what, clip(enc, 20))
}

// headerList reads a list of {name, value} mappings into a header.
func (d *yamlDoc) headerList(fs map[string]field, key, what string) (http.Header, error) {
	kvs, err := d.nameValues(fs, key, what)
	if err != nil {
		return nil, err
	}
	h := make(http.Header, len(kvs))
	for _, kv := range kvs {
		k := http.CanonicalHeaderKey(kv[0])
		h[k] = append(h[k], kv[1])
	}
	return h, nil
}

// nameValues reads an optional list of {name, value} mappings.
func (d *yamlDoc) nameValues(fs map[string]field, key, what string) ([][2]string, error) {
	f, ok := fs[key]
	if !ok {
		return nil, nil
	}
	n, err := d.node(f.value)
	if err != nil || isNull(n) {
		return nil, err
	}
	items, err := d.items(n, what+" "+key)
	if err != nil {
		return nil, err
	}
	out := make([][2]string, 0, len(items))
	for j, it := range items {
		it, err := d.node(it)
		if err != nil {
			return nil, err
		}
		where := what + " " + key + "[" + strconv.Itoa(j) + "]"
		ifs, _, err := d.fields(it, where)
		if err != nil {
			return nil, err
		}
		name, err := d.optStr(ifs, "name", where)
		if err != nil {
			return nil, err
		}
		value, err := d.optStr(ifs, "value", where)
		if err != nil {
			return nil, err
		}
		out = append(out, [2]string{name, value})
	}
	return out, nil
}
