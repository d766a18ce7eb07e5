// Package gemini decodes and encodes the Google Gemini generateContent wire.
package gemini

import "github.com/llmtck/llmtck/traffic"

// Codec is the Google Gemini generateContent codec. Its zero value is ready
// to use.
type Codec struct{}

// Wire returns traffic.WireGemini.
func (Codec) Wire() traffic.Wire { return traffic.WireGemini }
