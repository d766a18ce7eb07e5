package responses

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/llmtck/llmtck/internal/body"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// DecodeResponse decodes a response body, telling its kind from the content
// (recorded headers are often missing): an event stream (SSE, or one JSON
// event per line as in response-only fixtures) is reassembled; a JSON
// document is a response object, or an error body {"error":{…}}; a plain
// text body on an error status becomes Response.Error. It fails only when
// nothing could be decoded.
func (Codec) DecodeResponse(status int, header http.Header, b []byte) (*traffic.Response, error) {
	trimmed := bytes.TrimSpace(b)
	switch f := body.Sniff(b); {
	case f == body.EventStream:
		return decodeStream(sseEvents(b)), nil
	case f == body.Document && isStreamEvent(trimmed):
		// A single event: a one-line fixture.
		return decodeStream([]event{{data: string(trimmed), offset: bytes.Index(b, trimmed)}}), nil
	case f == body.Document:
		return decodeDocument(status, trimmed), nil
	case f == body.JSONLines:
		return decodeStream(jsonLines(b)), nil
	case isError(status) && (f == body.Text || f == body.BadJSON):
		return &traffic.Response{Wire: traffic.WireResponses, Error: &traffic.APIError{Message: string(trimmed)}}, nil
	default:
		return nil, body.Unreadable(b, f)
	}
}

func isError(status int) bool { return status >= 300 || (status != 0 && status < 200) }

// isStreamEvent reports whether a JSON document is a single stream event
// (a one-line fixture) rather than a response object.
func isStreamEvent(doc []byte) bool {
	o, err := parseObject(doc, "body")
	if err != nil {
		return false
	}
	typ, _ := o.str("type")
	return strings.HasPrefix(typ, "response.")
}

// decodeDocument reads a JSON response object or an error body.
func decodeDocument(status int, doc []byte) *traffic.Response {
	resp := &traffic.Response{Wire: traffic.WireResponses}
	o, err := parseObject(doc, "body")
	if err != nil {
		// Valid JSON that is not an object: only an error status explains it.
		resp.Error = &traffic.APIError{Message: string(doc)}
		return resp
	}
	fillResponse(resp, o, "")
	if resp.Error == nil && isError(status) {
		resp.Error = &traffic.APIError{Message: string(doc)}
	}
	return resp
}

// fillResponse copies a response object's fields into resp. Output items are
// decoded under pathPrefix+"output[i]"; an item that is not an object is
// kept whole as a BlockOther rather than failing the response.
func fillResponse(resp *traffic.Response, o *object, pathPrefix string) {
	if s, ok := o.str("id"); ok {
		resp.ID = s
	}
	if s, ok := o.str("model"); ok {
		resp.Model = s
	}
	if s, ok := o.str("status"); ok {
		resp.Status = s
	}
	if u := usageOf(o.get("usage")); u != nil {
		resp.Usage = u
	}
	if e := apiError(o.get("error")); e != nil {
		resp.Error = e
	}
	if d := o.get("incomplete_details"); rawjson.Kind(d) == "object" {
		if do, err := parseObject(d, "incomplete_details"); err == nil {
			resp.StopReason, _ = do.str("reason")
		}
	}
	if out := o.get("output"); rawjson.Kind(out) == "array" {
		items, _ := rawjson.Array(out)
		resp.Output = make([]traffic.Message, 0, len(items))
		for i, it := range items {
			resp.Output = append(resp.Output, outputMessage(it, pathPrefix+rawjson.Index("output", i)))
		}
	}
}

// outputMessage decodes one output item, keeping a malformed one whole.
func outputMessage(raw json.RawMessage, path string) traffic.Message {
	m, err := decodeItem(raw, path)
	if err != nil {
		return traffic.Message{Path: path, Blocks: []traffic.Block{{Type: traffic.BlockOther, Path: path, Raw: raw}}}
	}
	return m
}

// usageOf reads the usage object, including cached input tokens and
// output_tokens_details.reasoning_tokens.
func usageOf(raw json.RawMessage) *traffic.Usage {
	if rawjson.Kind(raw) != "object" {
		return nil
	}
	o, err := parseObject(raw, "usage")
	if err != nil {
		return nil
	}
	u := &traffic.Usage{}
	u.InputTokens, _ = intValue(o.get("input_tokens"))
	u.OutputTokens, _ = intValue(o.get("output_tokens"))
	u.CacheReadTokens = detail(o.get("input_tokens_details"), "cached_tokens")
	u.ReasoningTokens = detail(o.get("output_tokens_details"), "reasoning_tokens")
	return u
}

func detail(raw json.RawMessage, key string) int {
	if rawjson.Kind(raw) != "object" {
		return 0
	}
	o, err := parseObject(raw, "details")
	if err != nil {
		return 0
	}
	n, _ := intValue(o.get(key))
	return n
}
