package providers

import (
	"net/http"
	"strings"
	"time"

	"github.com/llmtck/llmtck/cassette"
	"github.com/llmtck/llmtck/traffic"
)

// Call is one recorded HTTP call, as any cassette format yields it.
type Call struct {
	Method         string
	URL            string
	RequestHeader  http.Header
	RequestBody    []byte
	Status         int
	ResponseHeader http.Header
	ResponseBody   []byte
	Duration       time.Duration
	// Wire, when set, forces the wire instead of detecting it.
	Wire traffic.Wire
	// Memo, when set, shares the messages this request repeats from
	// requests decoded before with the same Memo (see traffic.Memo).
	Memo *traffic.Memo
}

// memoDecoder is a codec that can decode a request's messages through a
// Memo.
type memoDecoder interface {
	DecodeRequestMemo(body []byte, memo *traffic.Memo) (*traffic.Request, error)
}

// decodeRequest decodes a request body, through c.Memo when the codec can
// (the part of it for the codec's wire).
func decodeRequest(codec Codec, c Call) (*traffic.Request, error) {
	if md, ok := codec.(memoDecoder); ok && c.Memo != nil {
		return md.DecodeRequestMemo(c.RequestBody, c.Memo.For(codec.Wire()))
	}
	return codec.DecodeRequest(c.RequestBody)
}

// Decode turns one recorded call into an Exchange: it detects the wire and
// decodes both bodies with that wire's codec. A body that does not decode is
// reported in RequestErr or ResponseErr; Decode itself never fails, so one
// bad interaction never hides the others.
func Decode(index int, c Call) traffic.Exchange {
	ex := traffic.Exchange{
		Index:    index,
		Method:   c.Method,
		URL:      c.URL,
		Status:   c.Status,
		Duration: c.Duration,
		Wire:     c.Wire,

		RequestHeader:  nonNil(c.RequestHeader),
		ResponseHeader: nonNil(c.ResponseHeader),
		RequestBody:    c.RequestBody,
		ResponseBody:   c.ResponseBody,
	}
	if ex.Wire == "" {
		ex.Wire = Detect(c.URL, c.RequestBody, c.ResponseBody)
	}
	codec := For(ex.Wire)
	if codec == nil {
		setDialect(&ex)
		return ex
	}
	if len(c.RequestBody) > 0 {
		req, err := decodeRequest(codec, c)
		if err != nil {
			ex.RequestErr = "request body: " + err.Error()
		} else {
			if req.Model == "" {
				req.Model = modelFromPath(c.URL)
			}
			req.Stream = req.Stream || StreamedByPath(c.URL)
			ex.Request = req
		}
	}
	if len(c.ResponseBody) > 0 || c.Status != 0 {
		decodeResponse(&ex, codec, c.ResponseBody)
	}
	setDialect(&ex)
	return ex
}

// setDialect names who served ex, from its URL or, without a host, from
// the model its request or response names.
func setDialect(ex *traffic.Exchange) {
	model := ""
	if ex.Request != nil {
		model = ex.Request.Model
	}
	if model == "" && ex.Response != nil {
		model = ex.Response.Model
	}
	ex.Dialect = DetectDialect(ex.URL, ex.Wire, model)
}

// AddResponse decodes the response of a call whose request Decode already
// decoded, so a request judged on arrival is not decoded again when its
// answer comes. A call whose wire only the response tells is decoded whole.
func AddResponse(ex *traffic.Exchange, c Call) {
	if toldByResponse(ex) {
		c.Wire = ""
		*ex = Decode(ex.Index, c)
		return
	}
	ex.Status, ex.Duration, ex.ResponseHeader = c.Status, c.Duration, nonNil(c.ResponseHeader)
	if codec := For(ex.Wire); codec != nil && (len(c.ResponseBody) > 0 || c.Status != 0) {
		decodeResponse(ex, codec, c.ResponseBody)
	}
	setDialect(ex)
}

// toldByResponse reports whether only the response can tell ex's wire: its
// request did not, so AddResponse decodes the call whole.
func toldByResponse(ex *traffic.Exchange) bool {
	return ex.Wire == traffic.WireUnknown || ex.Wire == ""
}

// JoinResponse is AddResponse for a response decoded before its request:
// resp is an exchange of the same call that AddResponse gave the response
// to while it held only the call's method, URL and wire. ex, its request
// decoded by Decode, takes that response as AddResponse would give it.
func JoinResponse(ex, resp *traffic.Exchange) {
	if toldByResponse(ex) {
		*ex = *resp // only the response told the wire: resp was decoded whole
		return
	}
	ex.Status, ex.Duration, ex.ResponseHeader = resp.Status, resp.Duration, resp.ResponseHeader
	ex.Response, ex.ResponseErr = resp.Response, resp.ResponseErr
	setDialect(ex)
}

// DeferResponse is AddResponse in two steps, for a linter that decodes a
// response only when a later request needs it: it sets ex's status,
// duration and response header now, and returns what adds the rest. For a
// call whose wire only the response can tell it does nothing and returns
// nil: decode it with AddResponse.
func DeferResponse(ex *traffic.Exchange, c Call) func(*traffic.Exchange) {
	if toldByResponse(ex) {
		return nil
	}
	ex.Status, ex.Duration, ex.ResponseHeader = c.Status, c.Duration, nonNil(c.ResponseHeader)
	// The wire is known: the response is decoded alone, and the request,
	// a growing conversation's larger part, need not be kept till then.
	c.RequestHeader, c.RequestBody, c.Memo = nil, nil, nil
	return func(ex *traffic.Exchange) { AddResponse(ex, c) }
}

func decodeResponse(ex *traffic.Exchange, codec Codec, body []byte) {
	resp, err := codec.DecodeResponse(ex.Status, ex.ResponseHeader, body)
	if err != nil {
		ex.ResponseErr = "response body: " + err.Error()
	} else {
		ex.Response = resp
	}
}

// modelFromPath reads the model from a Gemini or Vertex path such as
// /v1beta/models/gemini-2.5-pro:generateContent.
func modelFromPath(rawURL string) string {
	u, err := parseURL(rawURL)
	if err != nil {
		return ""
	}
	if _, rest, ok := strings.Cut(u.Path, "/models/"); ok {
		model, _, _ := strings.Cut(rest, ":")
		return model
	}
	// Bedrock: /model/{modelId}/converse, the id path-escaped ("v1%3A0").
	if _, rest, ok := strings.Cut(u.Path, "/model/"); ok {
		model, _, _ := strings.Cut(rest, "/")
		return model
	}
	return ""
}

// StreamedByPath reports whether the endpoint itself asks for a stream, as
// Gemini's :streamGenerateContent and Bedrock's invoke-with-response-stream do.
func StreamedByPath(rawURL string) bool {
	u, err := parseURL(rawURL)
	if err != nil {
		return false
	}
	for _, s := range []string{":streamGenerateContent", ":streamRawPredict", "/invoke-with-response-stream", "/converse-stream"} {
		if strings.HasSuffix(u.Path, s) {
			return true
		}
	}
	return false
}

// DecodeCassette decodes every interaction of a cassette. A non-empty wire
// forces that wire for every call instead of detecting it.
func DecodeCassette(c *cassette.Cassette, wire traffic.Wire) []traffic.Exchange {
	out := make([]traffic.Exchange, len(c.Interactions))
	memo := traffic.NewMemo()
	for i, in := range c.Interactions {
		call := Call{
			Method:         in.Request.Method,
			URL:            in.Request.URL,
			RequestHeader:  in.Request.Header,
			RequestBody:    in.Request.Body,
			Status:         in.Response.Status,
			ResponseHeader: in.Response.Header,
			ResponseBody:   in.Response.Body,
			Duration:       in.Response.Duration,
			Wire:           wire,
			Memo:           memo,
		}
		out[i] = Decode(i, call)
	}
	return out
}

func nonNil(h http.Header) http.Header {
	if h == nil {
		return http.Header{}
	}
	return h
}
