// Package anthropic decodes and encodes the Anthropic Messages wire
// (POST /v1/messages, and the same bodies on Bedrock and Vertex).
package anthropic

import (
	"net/http"

	"github.com/llmtck/llmtck/traffic"
)

// Codec is the Anthropic Messages codec. The zero value is ready to use.
type Codec struct{}

// Wire returns traffic.WireAnthropic.
func (Codec) Wire() traffic.Wire { return traffic.WireAnthropic }

// DecodeRequest decodes a Messages request body. Opaque tokens (signature,
// redacted data, tool input, media source, server-tool blocks) alias body.
func (Codec) DecodeRequest(body []byte) (*traffic.Request, error) { return decodeRequest(body, nil) }

// DecodeRequestMemo is DecodeRequest with the messages decoded through
// memo: a message already decoded at the same position is shared, not
// decoded again.
func (Codec) DecodeRequestMemo(body []byte, memo *traffic.Memo) (*traffic.Request, error) {
	return decodeRequest(body, memo)
}

// EncodeRequest encodes req as a Messages request body with HTML escaping
// off. Opaque tokens and BlockOther Raw values are written verbatim.
func (Codec) EncodeRequest(req *traffic.Request) ([]byte, error) { return encodeRequest(req) }

// DecodeResponse decodes a Messages response: a message document, an error
// body, or an event stream (SSE, or one JSON event per line), reassembled as
// anthropic-sdk-go's Message.Accumulate does.
func (Codec) DecodeResponse(status int, header http.Header, body []byte) (*traffic.Response, error) {
	return decodeResponse(status, body)
}
