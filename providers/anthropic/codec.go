// Package anthropic decodes and encodes the Anthropic Messages wire.
package anthropic

import (
	"errors"
	"net/http"

	"github.com/llmtck/llmtck/engine"
)

// Codec is the Anthropic Messages codec.
type Codec struct{}

// Wire returns engine.WireAnthropic.
func (Codec) Wire() engine.Wire { return engine.WireAnthropic }

// DecodeRequest is not written yet.
func (Codec) DecodeRequest(body []byte) (*engine.Request, error) {
	return nil, errors.New("not implemented")
}

// EncodeRequest is not written yet.
func (Codec) EncodeRequest(req *engine.Request) ([]byte, error) {
	return nil, errors.New("not implemented")
}

// DecodeResponse is not written yet.
func (Codec) DecodeResponse(status int, header http.Header, body []byte) (*engine.Response, error) {
	return nil, errors.New("not implemented")
}
