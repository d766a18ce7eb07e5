// Package gemini decodes and encodes the Google Gemini generateContent wire.
package gemini

import "github.com/llmtck/llmtck/engine"

// Codec is the Google Gemini generateContent codec. Its zero value is ready
// to use.
type Codec struct{}

// Wire returns engine.WireGemini.
func (Codec) Wire() engine.Wire { return engine.WireGemini }
