// Package responses decodes and encodes the OpenAI Responses wire
// (POST /v1/responses): request bodies, response documents, error bodies and
// event streams, reassembled the way the OpenAI SDKs accumulate them.
package responses

import "github.com/llmtck/llmtck/traffic"

// Codec is the OpenAI Responses codec. Its zero value is ready to use.
type Codec struct{}

// Wire returns traffic.WireResponses.
func (Codec) Wire() traffic.Wire { return traffic.WireResponses }
