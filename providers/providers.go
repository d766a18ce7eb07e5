// Package providers detects which provider wire a recorded call speaks and
// decodes it, through the wire's codec, into the canonical engine model.
package providers

import (
	"net/http"

	"github.com/llmtck/llmtck/providers/anthropic"
	"github.com/llmtck/llmtck/providers/bedrock"
	"github.com/llmtck/llmtck/providers/gemini"
	"github.com/llmtck/llmtck/providers/openai"
	"github.com/llmtck/llmtck/providers/responses"
	"github.com/llmtck/llmtck/traffic"
)

// Codec decodes one wire's bodies into the model and encodes requests back.
// Every codec keeps opaque payloads and tool arguments as the raw bytes it
// received, so DecodeRequest followed by EncodeRequest changes no opaque byte.
type Codec interface {
	Wire() traffic.Wire
	// DecodeRequest decodes a request body (always JSON).
	DecodeRequest(body []byte) (*traffic.Request, error)
	// EncodeRequest encodes the model back into a request body (JSON, HTML
	// escaping off).
	EncodeRequest(req *traffic.Request) ([]byte, error)
	// DecodeResponse decodes a response body: a JSON document, an error
	// body, or an event stream (detected from the content, not headers),
	// reassembled the way the provider's SDK accumulates it. Stream grammar
	// problems are reported in Response.Stream.Issues, not as errors; an error
	// is returned only when nothing could be decoded at all.
	DecodeResponse(status int, header http.Header, body []byte) (*traffic.Response, error)
}

var codecs = map[traffic.Wire]Codec{
	traffic.WireAnthropic: anthropic.Codec{},
	traffic.WireOpenAI:    openai.Codec{},
	traffic.WireResponses: responses.Codec{},
	traffic.WireGemini:    gemini.Codec{},
	traffic.WireBedrock:   bedrock.Codec{},
}

// For returns the codec of wire, or nil for WireUnknown.
func For(wire traffic.Wire) Codec { return codecs[wire] }

// Wires lists the wires that have a codec, in report order.
func Wires() []traffic.Wire {
	return []traffic.Wire{traffic.WireAnthropic, traffic.WireOpenAI, traffic.WireResponses, traffic.WireGemini, traffic.WireBedrock}
}
