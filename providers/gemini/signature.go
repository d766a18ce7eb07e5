package gemini

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// SignatureBytes decodes a thoughtSignature token (the raw JSON string) into
// the bytes it stands for, accepting the standard and the URL-safe base64
// alphabets, with or without padding. Clients re-encode signatures (see the
// corpus's test_google_streaming_tool_call_thought_signature, echoed with
// "-" and "_"), so echo checks compare these bytes; the raw token itself is
// never rewritten.
func SignatureBytes(raw json.RawMessage) ([]byte, error) {
	s, ok := rawjson.String(raw)
	if !ok {
		return nil, rawjson.Mismatch("thoughtSignature", "a string", raw)
	}
	s = strings.TrimRight(s, "=")
	s = strings.NewReplacer("-", "+", "_", "/").Replace(s)
	b, err := base64.RawStdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("thoughtSignature: not base64: %v", err)
	}
	return b, nil
}

// NestedSignature returns a thoughtSignature written inside a block's
// functionCall or functionResponse object instead of beside it, at Part
// level, where the API expects it (GEM-SIG-001). The decoder leaves such a
// signature where it was — in the raw object kept in Extra — so it is
// neither counted as the part's Signature nor moved by an encode.
func NestedSignature(b *traffic.Block) (json.RawMessage, bool) {
	if b.Type != traffic.BlockToolCall && b.Type != traffic.BlockToolResult {
		return nil, false
	}
	kept, ok := b.Extra[b.WireType]
	if !ok {
		return nil, false
	}
	obj, err := parseObject(kept, "")
	if err != nil {
		return nil, false
	}
	_, v, ok := obj.get(nSignature)
	return v, ok
}

// StreamOrigin reads the chunk and the part a streamed block came from out
// of its Path, "events[k].candidates[c].content.parts[j]": event is the
// event index in the stream, part the index among that chunk's parts. ok is
// false for paths of other shapes, such as those of a JSON response.
func StreamOrigin(path string) (event, part int, ok bool) {
	var cand int
	n, err := fmt.Sscanf(path, "events[%d].candidates[%d].content.parts[%d]", &event, &cand, &part)
	if err != nil || n != 3 || path != fmt.Sprintf("events[%d].candidates[%d].content.parts[%d]", event, cand, part) {
		return 0, 0, false
	}
	return event, part, true
}
