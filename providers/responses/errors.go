package responses

import (
	"encoding/json"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// apiError reads an error object {type, code, message, param}. Codes and
// params may be null, strings or, on some hosts, numbers. It returns nil
// when raw is not an object.
func apiError(raw json.RawMessage) *traffic.APIError {
	if rawjson.Kind(raw) != "object" {
		return nil
	}
	o, err := parseObject(raw, "error")
	if err != nil {
		return nil
	}
	return &traffic.APIError{
		Type:    textOf(o.get("type")),
		Code:    textOf(o.get("code")),
		Message: textOf(o.get("message")),
		Param:   textOf(o.get("param")),
	}
}

// errorEvent reads a stream's `error` event. The documented shape puts code,
// message and param at the top level; recorded streams also nest them under
// "error" (the vercel insufficient_quota fixture), so both are read.
func errorEvent(o *object) *traffic.APIError {
	if e := apiError(o.get("error")); e != nil {
		return e
	}
	return &traffic.APIError{
		Code:    textOf(o.get("code")),
		Message: textOf(o.get("message")),
		Param:   textOf(o.get("param")),
	}
}
