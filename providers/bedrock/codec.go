// Package bedrock decodes and encodes the Amazon Bedrock Converse wire
// (POST /model/{modelId}/converse and /converse-stream): requests,
// responses, and ConverseStream's AWS event streams, into the canonical
// model and back.
//
// Content blocks are unions keyed by their member name ({"text": …},
// {"toolUse": …}, {"reasoningContent": …}); a block the model does not
// interpret (cachePoint, image, document, guardContent …) is kept whole in
// Raw, and unknown fields inside an interpreted one in Extra, so decoding
// and encoding change no byte of meaning.
package bedrock

import (
	"net/http"

	"github.com/llmtck/llmtck/traffic"
)

// Codec is the Bedrock Converse codec. The zero value is ready to use.
type Codec struct{}

// Wire returns traffic.WireBedrock.
func (Codec) Wire() traffic.Wire { return traffic.WireBedrock }

// DecodeRequest decodes a Converse or ConverseStream request body. The
// model id is in the URL, not the body; providers.Decode fills it in.
func (Codec) DecodeRequest(body []byte) (*traffic.Request, error) { return decodeRequest(body) }

// DecodeRequestMemo is DecodeRequest with the messages decoded through
// memo: a message already decoded at the same position is shared, not
// decoded again.
func (Codec) DecodeRequestMemo(body []byte, memo *traffic.Memo) (*traffic.Request, error) {
	return decodeRequestMemo(body, memo)
}

// EncodeRequest encodes req as a Converse request body with HTML escaping
// off. Opaque tokens and Raw blocks are written verbatim.
func (Codec) EncodeRequest(req *traffic.Request) ([]byte, error) { return encodeRequest(req) }

// DecodeResponse decodes a Converse response document, an error body
// (x-amzn-ErrorType names the exception), or a ConverseStream response: an
// AWS event stream, or the same events one JSON object per line.
func (Codec) DecodeResponse(status int, header http.Header, body []byte) (*traffic.Response, error) {
	return decodeResponse(status, header, body)
}
