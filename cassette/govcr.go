package cassette

import (
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// readGoVCR reads go-vcr cassettes: v1/v2 (`version: 1`) and v3/v4
// (`version: 2`, with id, proto, content_length, host … which carry nothing
// the body and headers do not). Bodies are strings, or !!binary when go-vcr
// met bytes that are not UTF-8.
func (d *yamlDoc) readGoVCR() ([]*Interaction, error) {
	list, err := d.interactionList("interactions")
	if err != nil {
		return nil, err
	}
	out := make([]*Interaction, 0, len(list))
	for i, n := range list {
		req, resp, err := d.sides(n, i)
		if err != nil {
			return nil, err
		}
		what := "interaction " + strconv.Itoa(i)
		in := &Interaction{}
		if err := d.goVCRRequest(req.fs, what+" request", &in.Request); err != nil {
			return nil, err
		}
		if err := d.goVCRResponse(resp, what+" response", &in.Response); err != nil {
			return nil, err
		}
		out = append(out, in)
	}
	return out, nil
}

func (d *yamlDoc) goVCRRequest(fs map[string]field, what string, r *Request) error {
	var err error
	var body string
	if body, err = d.optStr(fs, "body", what); err != nil {
		return err
	}
	r.Body = bodyBytes(body)
	if r.Header, err = d.optHeaders(fs, "headers", what); err != nil {
		return err
	}
	if r.URL, err = d.optStr(fs, "url", what); err != nil {
		return err
	}
	r.Method, err = d.optStr(fs, "method", what)
	return err
}

func (d *yamlDoc) goVCRResponse(s side, what string, r *Response) error {
	fs := s.fs
	var err error
	var body string
	if body, err = d.optStr(fs, "body", what); err != nil {
		return err
	}
	r.Body = bodyBytes(body)
	if r.Header, err = d.optHeaders(fs, "headers", what); err != nil {
		return err
	}
	if r.StatusText, err = d.optStr(fs, "status", what); err != nil {
		return err
	}
	if f, ok := fs["code"]; ok {
		if r.Status, err = d.integer(f.value, what+" code"); err != nil {
			return err
		}
	} else if code, ok := leadingCode(r.StatusText); ok {
		r.Status = code
	} else {
		return errorf(d.file, s.line, "%s has neither `code` nor a `status` such as \"200 OK\"", what)
	}
	if f, ok := fs["duration"]; ok {
		if r.Duration, err = d.duration(f.value, what+" duration"); err != nil {
			return err
		}
	}
	if f, ok := fs[offsetsKey]; ok {
		items, err := d.items(f.value, what+" "+offsetsKey)
		if err != nil {
			return err
		}
		r.EventOffsets = make([]time.Duration, 0, len(items))
		for _, item := range items {
			v, err := d.duration(item, what+" "+offsetsKey)
			if err != nil {
				return err
			}
			r.EventOffsets = append(r.EventOffsets, v)
		}
	}
	return nil
}

// offsetsKey is llmtck's extra response key for SSE event timing; go-vcr
// ignores keys it does not know.
const offsetsKey = "llmtck_event_offsets"

// leadingCode reads the status code at the start of a go-vcr status string.
func leadingCode(status string) (int, bool) {
	f := strings.Fields(status)
	if len(f) == 0 {
		return 0, false
	}
	code, err := strconv.Atoi(f[0])
	return code, err == nil
}

// ephemeral reads the root `llmtck_ephemeral` list of strings; nil when it
// is absent, null or empty.
func (d *yamlDoc) ephemeral() ([]string, error) {
	fs, _, err := d.fields(d.root, "the cassette")
	if err != nil {
		return nil, err
	}
	f, ok := fs[ephemeralKey]
	if !ok {
		return nil, nil
	}
	items, err := d.items(f.value, "`"+ephemeralKey+"`")
	if err != nil {
		return nil, err
	}
	var out []string
	for i, n := range items {
		s, err := d.str(n, "`"+ephemeralKey+"` item "+strconv.Itoa(i))
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// version reads the root `version` as text, "" when absent.
func (d *yamlDoc) version() string {
	fs, _, err := d.fields(d.root, "the cassette")
	if err != nil {
		return ""
	}
	f, ok := fs["version"]
	if !ok {
		return ""
	}
	v, err := d.node(f.value)
	if err != nil || v.Kind != yaml.ScalarNode {
		return ""
	}
	return v.Value
}
