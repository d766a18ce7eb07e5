package anthropic

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// judgedTypes are the block types whose allowed deltas are known; deltas on
// any other (newer) block type are applied where they fit and not judged.
var judgedTypes = map[string]bool{
	"text": true, "thinking": true, "redacted_thinking": true, "tool_use": true,
	"server_tool_use": true, "mcp_tool_use": true, "mcp_tool_result": true,
	"web_search_tool_result": true, "web_fetch_tool_result": true,
	"code_execution_tool_result": true, "bash_code_execution_tool_result": true,
	"text_editor_code_execution_tool_result": true, "tool_search_tool_result": true,
	"container_upload": true, "compaction": true,
}

// inputTypes are the block types that stream their input as input_json_delta.
var inputTypes = map[string]bool{"tool_use": true, "server_tool_use": true, "mcp_tool_use": true}

// blockState is one streamed content block being accumulated.
type blockState struct {
	index   int // the wire index
	stopped bool
	// block is decoded from content_block_start; finish lays the deltas
	// over it.
	block  traffic.Block
	fields []rawjson.Field // the start object's fields, for rebuilding Raw
	judged bool

	text      strings.Builder // text or thinking, from the start value on
	sig       strings.Builder
	sigSeen   bool
	input     []byte // the SDK's buffer: the start input, then partial_json
	inputSeen bool   // a non-empty partial_json arrived
	takesIn   bool
	cites     []json.RawMessage
	citesSeen bool
	overrides map[string]json.RawMessage // compaction_delta fields
}

// newBlockState starts a block from its content_block object.
func newBlockState(idx int, path string, raw json.RawMessage) (*blockState, error) {
	fields, err := rawjson.ObjectAt("content_block", raw)
	if err != nil {
		return nil, err
	}
	b := &blockState{index: idx, fields: fields, block: responseBlock(path, raw)}
	wire := b.block.WireType
	b.judged = judgedTypes[wire]
	b.text.WriteString(b.block.Text)
	if s, ok := rawjson.String(b.block.Signature); ok {
		b.sig.WriteString(s)
	}
	if sig, ok := rawjson.Lookup(fields, "signature"); ok && b.block.Type == traffic.BlockOther {
		s, _ := rawjson.String(sig)
		b.sig.WriteString(s)
	}
	in, hasInput := rawjson.Lookup(fields, "input")
	b.takesIn = hasInput || inputTypes[wire]
	// A copy: appending must never write into the event's bytes.
	b.input = append([]byte(nil), in...)
	if c, ok := b.block.Extra["citations"]; ok {
		b.cites, _ = rawjson.Array(c)
	}
	return b, nil
}

func (b *blockState) wireType() string {
	if b.block.WireType == "" {
		return "untyped"
	}
	return b.block.WireType
}

// apply adds one delta. It reports false for a delta type the block's type
// does not take; unknown delta types (new API variants) are ignored, as the
// SDK ignores them.
func (b *blockState) apply(d *wireDelta) bool {
	wire := b.block.WireType
	switch d.Type {
	case "text_delta":
		if b.block.Type != traffic.BlockText {
			return !b.judged
		}
		b.text.WriteString(d.Text)
	case "citations_delta":
		if b.block.Type != traffic.BlockText {
			return !b.judged
		}
		if d.Citation != nil {
			b.cites = append(b.cites, d.Citation)
		}
		b.citesSeen = true
	case "thinking_delta":
		if b.block.Type != traffic.BlockThinking {
			return !b.judged
		}
		b.text.WriteString(d.Thinking)
	case "signature_delta":
		if b.block.Type != traffic.BlockThinking && wire != "compaction" {
			return !b.judged
		}
		b.sig.WriteString(d.Signature)
		b.sigSeen = true
	case "input_json_delta":
		if !b.takesIn {
			return !b.judged
		}
		// As the SDK: the first non-empty fragment replaces the start's
		// "{}", later ones are appended.
		if p := d.PartialJSON; p != "" {
			if string(b.input) == "{}" {
				b.input = b.input[:0]
			}
			b.input = append(b.input, p...)
			b.inputSeen = true
		}
	case "compaction_delta":
		if wire != "compaction" {
			return !b.judged
		}
		// As the SDK: each field replaces the block's, when not empty.
		if d.Content != "" {
			rawjson.SetExtra(&b.overrides, "content", rawjson.Quote(d.Content))
		}
		if d.EncryptedContent != "" {
			rawjson.SetExtra(&b.overrides, "encrypted_content", rawjson.Quote(d.EncryptedContent))
		}
	}
	return true
}

// finish lays the accumulated deltas over the block. It may run more than
// once (deltas after a stop are still applied, as in the SDK). It returns
// what is wrong with the tool input, "" when nothing is, and marks the
// block Incomplete when that input did not parse: it was cut.
func (b *blockState) finish() (problem string) {
	cut := false
	switch b.block.Type {
	case traffic.BlockText:
		b.block.Text = b.text.String()
		if b.citesSeen {
			rawjson.SetExtra(&b.block.Extra, "citations", rawjson.ArrayOf(b.cites))
		}
	case traffic.BlockThinking:
		b.block.Text = b.text.String()
		if b.sigSeen {
			b.block.Signature = rawjson.Quote(b.sig.String())
		}
	case traffic.BlockToolCall:
		if b.inputSeen {
			b.block.Input, problem, cut = b.finalInput()
		}
	case traffic.BlockOther:
		over := map[string]json.RawMessage{}
		for k, v := range b.overrides {
			over[k] = v
		}
		if b.inputSeen {
			over["input"], problem, cut = b.finalInput()
		}
		if b.sigSeen {
			over["signature"] = rawjson.Quote(b.sig.String())
		}
		if len(over) > 0 {
			b.block.Raw = rebuild(b.fields, over)
		}
	}
	b.block.Incomplete = cut
	return problem
}

// finalInput checks the concatenated partial_json. Input that does not
// parse becomes {} as in the SDK; the problem names the bytes lost, and cut
// says the input is unfinished rather than merely of the wrong kind.
func (b *blockState) finalInput() (in json.RawMessage, problem string, cut bool) {
	in = json.RawMessage(append([]byte(nil), b.input...))
	switch {
	case validObject(in):
		return in, "", false
	case rawjson.Valid(in):
		return in, fmt.Sprintf("partial_json concatenates to %s, not an object", rawjson.Describe(in)), false
	}
	return json.RawMessage("{}"), fmt.Sprintf("partial_json does not parse as JSON: %s", quoteSnippet(in)), true
}

// quoteSnippet quotes b for a message, shortened.
func quoteSnippet(b []byte) string {
	if len(b) > 200 {
		return fmt.Sprintf("%q… (%d bytes)", b[:200], len(b))
	}
	return fmt.Sprintf("%q", b)
}

// rebuild writes fields in their order with the values in over replacing
// (or adding to) theirs.
func rebuild(fields []rawjson.Field, over map[string]json.RawMessage) json.RawMessage {
	var w objectWriter
	for _, f := range fields {
		if v, ok := over[f.Key]; ok {
			w.raw(f.Key, v)
			continue
		}
		w.raw(f.Key, f.Value)
	}
	w.extra(over)
	return w.bytes()
}
