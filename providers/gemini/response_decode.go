package gemini

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/llmtck/llmtck/internal/body"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// DecodeResponse decodes a GenerateContentResponse, an error body, or a
// stream. The shape is read from the body, not the headers: an event stream
// (streamGenerateContent?alt=sse), a JSON array of responses
// (streamGenerateContent without alt=sse), or one JSON document. A stream cut
// inside a multi-byte character still decodes.
//
// Output holds one assistant message per candidate, candidates[0] first;
// StopReason is candidates[0].finishReason (a numeric enum from
// "$alt=json;enum-encoding=int" clients is named when known), or
// promptFeedback.blockReason when there is no candidate. Fields of a
// candidate other than its content (safetyRatings, finishMessage…) are not
// kept: they would be written into the content if the message were echoed.
//
// A stream also fills Response.Stream. It is complete only when every
// candidate got a finishReason (or the prompt was blocked); grammar faults
// are Issues under traffic.CheckGeminiStream. Its chunks' parts are joined per candidate,
// plain text parts merged, signed parts never; each block keeps the path of
// the part it came from (see StreamOrigin and the notes in stream.go).
func (Codec) DecodeResponse(status int, header http.Header, b []byte) (*traffic.Response, error) {
	trimmed := bytes.TrimSpace(b)
	failed := status != 0 && (status < 200 || status > 299)
	switch f := body.Sniff(b); {
	case f == body.Empty:
		return nil, body.Unreadable(b, f)
	case f == body.EventStream:
		return decodeStream(sseEvents(b)), nil
	case trimmed[0] == '[':
		// A stream without alt=sse is one JSON array of chunks; a cut one
		// is not valid JSON, and the reassembler reports where it ends.
		if failed {
			if e := arrayError(trimmed); e != nil {
				return &traffic.Response{Wire: traffic.WireGemini, Error: e, Output: []traffic.Message{}}, nil
			}
		}
		return decodeStream(arrayEvents(b)), nil
	case f == body.Document && trimmed[0] == '{':
		return decodeDocument(trimmed, failed)
	case failed && (f == body.Text || f == body.Document):
		// A plain-text or HTML error page from a proxy or load balancer.
		return &traffic.Response{Wire: traffic.WireGemini, Output: []traffic.Message{},
			Error: &traffic.APIError{Code: strconv.Itoa(status), Message: string(trimmed)}}, nil
	default:
		return nil, body.Unreadable(b, f)
	}
}

// decodeDocument decodes one JSON response or error object.
func decodeDocument(body []byte, failed bool) (*traffic.Response, error) {
	resp := &traffic.Response{Wire: traffic.WireGemini, Output: []traffic.Message{}}
	obj, err := parseObject(body, "response body")
	if err != nil {
		return nil, err
	}
	if e := obj.value(name{"error", "error"}); e != nil || failed {
		resp.Error = decodeError(body)
		return resp, nil
	}
	ch, err := parseChunk(obj, "")
	if err != nil {
		return nil, err
	}
	resp.ID, resp.Model, resp.Usage = ch.id, ch.model, ch.usage
	for _, c := range ch.candidates {
		resp.Output = append(resp.Output, c.msg)
	}
	if len(ch.candidates) > 0 {
		resp.StopReason = ch.candidates[0].finish
	} else {
		resp.StopReason = ch.blockReason
	}
	return resp, nil
}

// decodeError reads {"error":{"code":403,"message":…,"status":…}}; any other
// body becomes the message.
func decodeError(body []byte) *traffic.APIError {
	obj, err := parseObject(body, "")
	if err == nil {
		e := obj.value(name{"error", "error"})
		if s, ok := rawjson.String(e); ok {
			return &traffic.APIError{Message: s}
		}
		if eo, err := parseObject(e, ""); err == nil {
			out := &traffic.APIError{Type: eo.str(name{"status", "status"}), Message: eo.str(name{"message", "message"})}
			code := eo.value(name{"code", "code"})
			if s, ok := rawjson.String(code); ok {
				out.Code = s
			} else if rawjson.Kind(code) == "number" {
				out.Code = string(code)
			}
			return out
		}
	}
	return &traffic.APIError{Message: string(rawjson.Compact(body))}
}

// arrayError finds the error in an error body sent as a JSON array.
func arrayError(body []byte) *traffic.APIError {
	items, err := rawjson.Array(body)
	if err != nil || len(items) == 0 {
		return nil
	}
	obj, err := parseObject(items[0], "")
	if err != nil || obj.value(name{"error", "error"}) == nil {
		return nil
	}
	return decodeError(items[0])
}

// chunk is one GenerateContentResponse, decoded.
type chunk struct {
	candidates  []candidate
	usage       *traffic.Usage
	id, model   string
	blockReason string
	feedback    bool // promptFeedback present
}

type candidate struct {
	index  int             // the candidate's index field, or its position
	msg    traffic.Message // the content; no blocks when there is none
	parts  bool            // content carried parts
	finish string          // finishReason; "" when absent or unspecified
}

var (
	nCandidates   = name{"candidates", "candidates"}
	nContent      = name{"content", "content"}
	nIndex        = name{"index", "index"}
	nFinish       = name{"finishReason", "finish_reason"}
	nUsage        = name{"usageMetadata", "usage_metadata"}
	nModelVersion = name{"modelVersion", "model_version"}
	nResponseID   = name{"responseId", "response_id"}
	nFeedback     = name{"promptFeedback", "prompt_feedback"}
	nBlockReason  = name{"blockReason", "block_reason"}
	nPromptTokens = name{"promptTokenCount", "prompt_token_count"}
	nOutTokens    = name{"candidatesTokenCount", "candidates_token_count"}
	nThoughtToks  = name{"thoughtsTokenCount", "thoughts_token_count"}
	nCachedTokens = name{"cachedContentTokenCount", "cached_content_token_count"}
)

// parseChunk decodes a response object; block paths start with prefix.
func parseChunk(obj object, prefix string) (chunk, error) {
	var ch chunk
	ch.id, ch.model = obj.str(nResponseID), obj.str(nModelVersion)
	if u := obj.value(nUsage); u != nil {
		ch.usage = decodeUsage(u)
	}
	if fo, err := parseObject(obj.value(nFeedback), ""); err == nil {
		ch.feedback = true
		ch.blockReason = enumName(fo.value(nBlockReason), nil)
	}
	cands := obj.value(nCandidates)
	if cands == nil || rawjson.Kind(cands) == "null" {
		return ch, nil
	}
	items, err := rawjson.Array(cands)
	if err != nil {
		return ch, rawjson.Mismatch(prefix+"candidates", "an array", cands)
	}
	for i, it := range items {
		path := fmt.Sprintf("%scandidates[%d]", prefix, i)
		co, err := parseObject(it, path)
		if err != nil {
			return ch, err
		}
		c := candidate{index: i, finish: enumName(co.value(nFinish), finishNames)}
		if n, ok := intValue(co.value(nIndex)); ok {
			c.index = n
		}
		c.msg = traffic.Message{Role: traffic.RoleAssistant, Path: path + ".content"}
		if key, content, ok := co.get(nContent); ok && rawjson.Kind(content) != "null" {
			if c.msg, err = decodeContent(content, path+"."+key); err != nil {
				return ch, err
			}
			if c.msg.Role == "" {
				c.msg.Role = traffic.RoleAssistant // the model's content may leave its role out
			}
			c.parts = len(c.msg.Blocks) > 0
		}
		ch.candidates = append(ch.candidates, c)
	}
	return ch, nil
}

func decodeUsage(raw json.RawMessage) *traffic.Usage {
	obj, err := parseObject(raw, "")
	if err != nil {
		return nil
	}
	n := func(k name) int { v, _ := intValue(obj.value(k)); return v }
	return &traffic.Usage{
		InputTokens:     n(nPromptTokens),
		OutputTokens:    n(nOutTokens),
		ReasoningTokens: n(nThoughtToks),
		CacheReadTokens: n(nCachedTokens),
	}
}

// finishNames are the FinishReason values both the Gemini API and Vertex AI
// number alike; higher numbers differ between them and stay numbers.
var finishNames = map[int]string{1: "STOP", 2: "MAX_TOKENS", 3: "SAFETY", 4: "RECITATION"}

// enumName reads an enum sent as a name or, by int-encoding clients, a
// number. The unspecified value (0 or *_UNSPECIFIED) reads as "".
func enumName(raw json.RawMessage, names map[int]string) string {
	if s, ok := rawjson.String(raw); ok {
		if s == "FINISH_REASON_UNSPECIFIED" || s == "BLOCK_REASON_UNSPECIFIED" {
			return ""
		}
		return s
	}
	n, ok := intValue(raw)
	if !ok || n == 0 {
		return ""
	}
	if s, ok := names[n]; ok {
		return s
	}
	return strconv.Itoa(n)
}
