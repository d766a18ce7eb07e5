// Package openai decodes and encodes the OpenAI Chat Completions wire, which
// OpenAI-compatible hosts (Groq, OpenRouter, DeepSeek, Moonshot…) also speak.
//
// Mapping conventions beyond the engine model's own:
//   - An assistant tool call's Input is its raw "arguments" token, a JSON
//     string exactly as sent; every other field of the call ("type",
//     "extra_content"…) is in the block's Extra. Extra keys prefixed
//     "function." belong inside the call's "function" object.
//   - reasoning_content (DeepSeek, Moonshot) and reasoning (Groq,
//     OpenRouter) on an assistant message are BlockThinking blocks placed
//     first, WireType naming the field.
//   - A tool message is one BlockToolResult whose ResultRaw is the content
//     as sent (string or parts); Text and Content are read from it.
//   - Legacy function_call and refusal stay in the message's Extra; the
//     legacy "function" role is kept as Role("function").
//   - The request's token limit stays in Extra under its wire name
//     (max_tokens or max_completion_tokens) and is read into MaxTokens;
//     setting MaxTokens in code overrides it.
package openai

import (
	"net/http"

	"github.com/llmtck/llmtck/traffic"
)

// Codec is the OpenAI Chat Completions codec.
type Codec struct{}

// Wire returns traffic.WireOpenAI.
func (Codec) Wire() traffic.Wire { return traffic.WireOpenAI }

// DecodeRequest decodes a chat completions request body.
func (Codec) DecodeRequest(body []byte) (*traffic.Request, error) {
	return decodeRequest(body)
}

// DecodeRequestMemo is DecodeRequest with the messages decoded through
// memo: a message already decoded at the same position is shared, not
// decoded again.
func (Codec) DecodeRequestMemo(body []byte, memo *traffic.Memo) (*traffic.Request, error) {
	return decodeRequestMemo(body, memo)
}

// EncodeRequest encodes the model back into a request body, HTML escaping
// off, opaque tokens (tool arguments, extra_content) written byte for byte.
func (Codec) EncodeRequest(req *traffic.Request) ([]byte, error) {
	return encodeRequest(req)
}

// DecodeResponse decodes a chat.completion document, an error body, or an
// event stream of chat.completion.chunk payloads (detected from the body,
// not the headers), reassembled as openai-go's ChatCompletionAccumulator does.
func (Codec) DecodeResponse(status int, _ http.Header, body []byte) (*traffic.Response, error) {
	return decodeResponse(status, body)
}
