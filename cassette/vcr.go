package cassette

import (
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// readVCRPy reads Python vcrpy cassettes: `interactions` whose requests have
// `uri`, bodies as a string, `{string: …}` or !!binary, statuses as
// `{code, message}`, and pydantic-ai's `parsed_body` mapping standing for a
// JSON body.
func (d *yamlDoc) readVCRPy() ([]*Interaction, error) {
	return d.readVCR("interactions", false)
}

// readRubyVCR reads Ruby VCR cassettes (and R's vcr, which copies them):
// `http_interactions`, lower-case methods, bodies as `{encoding, string}` or
// `{base64_string}`, and Ruby's `!binary` tag.
func (d *yamlDoc) readRubyVCR() ([]*Interaction, error) {
	return d.readVCR("http_interactions", true)
}

func (d *yamlDoc) readVCR(key string, ruby bool) ([]*Interaction, error) {
	list, err := d.interactionList(key)
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
		if err := d.vcrRequest(req.fs, what+" request", &in.Request); err != nil {
			return nil, err
		}
		if ruby {
			in.Request.Method = strings.ToUpper(in.Request.Method)
		}
		if err := d.vcrResponse(resp, what+" response", &in.Response); err != nil {
			return nil, err
		}
		out = append(out, in)
	}
	return out, nil
}

func (d *yamlDoc) vcrRequest(fs map[string]field, what string, r *Request) error {
	var err error
	if r.Method, err = d.optStr(fs, "method", what); err != nil {
		return err
	}
	if r.URL, err = d.optStr(fs, "uri", what); err != nil {
		return err
	}
	if r.Header, err = d.optHeaders(fs, "headers", what); err != nil {
		return err
	}
	r.Body, err = d.vcrBody(fs, what)
	return err
}

func (d *yamlDoc) vcrResponse(s side, what string, r *Response) error {
	fs := s.fs
	var err error
	f, ok := fs["status"]
	if !ok {
		return errorf(d.file, s.line, "%s has no `status`", what)
	}
	if r.Status, r.StatusText, err = d.status(f.value, what+" status"); err != nil {
		return err
	}
	if r.Header, err = d.optHeaders(fs, "headers", what); err != nil {
		return err
	}
	r.Body, err = d.vcrBody(fs, what)
	return err
}

// vcrBody reads `body` (a string, !!binary, or a mapping with `string` or
// `base64_string`) or, when that is absent or null, `parsed_body`.
func (d *yamlDoc) vcrBody(fs map[string]field, what string) ([]byte, error) {
	if f, ok := fs["body"]; ok {
		n, err := d.node(f.value)
		if err != nil {
			return nil, err
		}
		if !isNull(n) {
			return d.bodyNode(n, what+" body")
		}
	}
	if f, ok := fs["parsed_body"]; ok {
		n, err := d.node(f.value)
		if err != nil {
			return nil, err
		}
		if isNull(n) {
			return nil, nil
		}
		return d.toJSON(n, what+" parsed_body")
	}
	return nil, nil
}

func (d *yamlDoc) bodyNode(n *yaml.Node, what string) ([]byte, error) {
	if n.Kind == yaml.ScalarNode {
		s, err := d.str(n, what)
		return bodyBytes(s), err
	}
	if n.Kind != yaml.MappingNode {
		return nil, d.errorf(n, "expected a string or a mapping with `string` for %s, found %s", what, kindName(n))
	}
	fs, _, err := d.fields(n, what)
	if err != nil {
		return nil, err
	}
	if f, ok := fs["base64_string"]; ok {
		s, err := d.str(f.value, what+" base64_string")
		if err != nil {
			return nil, err
		}
		b, err := decodeBase64(s)
		if err != nil {
			return nil, d.errorf(f.key, "%s base64_string: invalid base64: %v", what, err)
		}
		return bodyBytes(string(b)), nil
	}
	if f, ok := fs["string"]; ok {
		s, err := d.str(f.value, what+" string")
		return bodyBytes(s), err
	}
	return nil, nil
}

// status reads `{code, message}` (vcrpy, Ruby VCR), `{status_code}` or a bare
// number (R vcr).
func (d *yamlDoc) status(n *yaml.Node, what string) (int, string, error) {
	n, err := d.node(n)
	if err != nil {
		return 0, "", err
	}
	if n.Kind == yaml.ScalarNode {
		code, err := d.integer(n, what)
		return code, statusText(code, ""), err
	}
	fs, _, err := d.fields(n, what)
	if err != nil {
		return 0, "", err
	}
	f, ok := fs["code"]
	if !ok {
		f, ok = fs["status_code"]
	}
	if !ok {
		return 0, "", d.errorf(n, "expected `code` in %s", what)
	}
	code, err := d.integer(f.value, what+" code")
	if err != nil {
		return 0, "", err
	}
	msg, err := d.optStr(fs, "message", what)
	return code, statusText(code, msg), err
}
