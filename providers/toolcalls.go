package providers

import (
	"bytes"
	"net/http"
	"strings"
)

// toolCallWords are the words every wire names a tool call with in a
// response: Anthropic's tool_use blocks, Chat Completions' tool_calls (and
// the function_call before them), Responses' function_call items, Gemini's
// functionCall (or function_call) parts and Bedrock's toolUse blocks. Each
// is split before its rarest byte: the tail is found at the speed of
// IndexByte, and the head checked where it would end. Looked for whole, by
// their first byte, the search would stop at every 't' and 'f', which
// English has every few bytes (BenchmarkNoToolCalls/prose). The words are
// grouped by that byte, so the body is searched once for each: three of
// them share the '_' that every JSON key with two words holds.
var toolCallWords = []struct {
	at    byte
	words []toolCallWord
}{
	{'_', []toolCallWord{{"tool", "_use"}, {"tool", "_calls"}, {"function", "_call"}}},
	{'C', []toolCallWord{{"function", "Call"}}},
	{'U', []toolCallWord{{"tool", "Use"}}},
}

type toolCallWord struct{ head, tail string }

// NoToolCalls reports whether a response certainly holds no tool call, on
// any wire, without decoding it: a successful, uncompressed JSON object in
// which no word a wire names a tool call with appears, nor a \u escape that
// could spell one. False means only that the body must be decoded to tell.
// A log that counts tool calls spares most answers a decode this way.
func NoToolCalls(status int, header http.Header, body []byte) bool {
	if status < 200 || status > 299 || !strings.Contains(header.Get("Content-Type"), "json") {
		return false
	}
	if enc := header.Get("Content-Encoding"); enc != "" && !strings.EqualFold(enc, "identity") {
		return false
	}
	body = bytes.TrimLeft(body, " \t\r\n")
	if len(body) == 0 || body[0] != '{' || bytes.Contains(body, []byte(`\u`)) {
		return false
	}
	for _, g := range toolCallWords {
		if holdsWord(body, g.at, g.words) {
			return false
		}
	}
	return true
}

// holdsWord reports whether body holds one of words, whose tails all start
// with the byte at.
func holdsWord(body []byte, at byte, words []toolCallWord) bool {
	for i := 0; ; {
		j := bytes.IndexByte(body[i:], at)
		if j < 0 {
			return false
		}
		k := i + j
		for _, w := range words {
			if k >= len(w.head) && string(body[k-len(w.head):k]) == w.head && bytes.HasPrefix(body[k:], []byte(w.tail)) {
				return true
			}
		}
		i = k + 1
	}
}
