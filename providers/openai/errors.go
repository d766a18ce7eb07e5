package openai

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/llmtck/llmtck/internal/body"
	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// decodeAPIError reads the value of an "error" key:
// {"message","type","param","code"} on OpenAI; hosts add fields (Groq's
// failed_generation, OpenRouter's metadata) that are left out, and some send
// a numeric code (OpenRouter: 429) or a bare string.
func decodeAPIError(v json.RawMessage) *traffic.APIError {
	if s, ok := rawjson.String(v); ok {
		return &traffic.APIError{Message: s}
	}
	var e struct {
		Message json.RawMessage `json:"message"`
		Type    json.RawMessage `json:"type"`
		Param   json.RawMessage `json:"param"`
		Code    json.RawMessage `json:"code"`
	}
	if rawjson.Kind(v) != "object" || json.Unmarshal(v, &e) != nil {
		return &traffic.APIError{Message: string(rawjson.Compact(v))}
	}
	return &traffic.APIError{
		Message: scalar(e.Message),
		Type:    scalar(e.Type),
		Param:   scalar(e.Param),
		Code:    scalar(e.Code),
	}
}

// scalar reads a string, number or boolean as text; null or absent is "".
func scalar(v json.RawMessage) string {
	if s, ok := rawjson.String(v); ok {
		return s
	}
	switch rawjson.Kind(v) {
	case "number", "boolean":
		return string(v)
	case "object", "array":
		return string(rawjson.Compact(v))
	}
	return ""
}

// statusError is the error of a non-2xx response whose body carries no
// "error" object: the body itself (shortened) or the status text.
func statusError(status int, b []byte) *traffic.APIError {
	msg := strings.TrimSpace(string(rawjson.Compact(b)))
	if msg == "" {
		msg = http.StatusText(status)
	}
	return &traffic.APIError{Code: strconv.Itoa(status), Message: body.Excerpt([]byte(msg), 120)}
}
