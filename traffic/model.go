// Package traffic is the wire-neutral model of LLM provider traffic: the
// exchanges, messages and blocks that every codec decodes into, every check
// judges and the proxy records, with opaque payloads kept as raw bytes.
package traffic

import "encoding/json"

// Wire names a provider protocol. The values are the report's provider names.
type Wire string

const (
	WireAnthropic Wire = "anthropic" // Anthropic Messages
	WireOpenAI    Wire = "openai"    // OpenAI Chat Completions and compatible hosts
	WireResponses Wire = "responses" // OpenAI Responses
	WireGemini    Wire = "gemini"    // Google Gemini generateContent
	WireBedrock   Wire = "bedrock"   // Amazon Bedrock Converse and ConverseStream
	WireUnknown   Wire = "unknown"   // anything else: kept, not judged
)

// Role is who authored a message.
type Role string

const (
	RoleSystem    Role = "system"
	RoleDeveloper Role = "developer"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// BlockType is the kind of one content block.
type BlockType string

const (
	BlockText       BlockType = "text"
	BlockImage      BlockType = "image"
	BlockDocument   BlockType = "document"
	BlockThinking   BlockType = "thinking"          // signed reasoning (Anthropic thinking, Gemini thought part)
	BlockRedacted   BlockType = "redacted_thinking" // Anthropic redacted_thinking: opaque Data only
	BlockReasoning  BlockType = "reasoning"         // OpenAI Responses reasoning item
	BlockToolCall   BlockType = "tool_call"
	BlockToolResult BlockType = "tool_result"
	BlockOther      BlockType = "other" // a wire block the model does not interpret; Raw holds it
)

// Block is one piece of message content. Opaque provider payloads
// (Signature, Data, EncryptedContent) and tool arguments (Input) are the exact
// JSON tokens received — string quotes and escapes included — so they can be
// echoed byte for byte and compared without re-encoding.
type Block struct {
	Type BlockType `json:"type"`
	// WireType is the provider's own name for the block ("text",
	// "server_tool_use", "function_call", "input_text"…).
	WireType string `json:"wire_type,omitempty"`
	// Path is the JSON path of the block in the body it was decoded from,
	// e.g. "messages[3].content[0]"; empty for blocks built in code.
	Path string `json:"path,omitempty"`

	Text    string `json:"text,omitempty"`    // text, thinking text, reasoning summary (joined)
	Thought bool   `json:"thought,omitempty"` // Gemini: part marked thought:true

	// Opaque payloads, as raw JSON tokens.
	Signature        json.RawMessage `json:"signature,omitempty"`         // Anthropic thinking signature; Gemini thoughtSignature (on any part)
	Data             json.RawMessage `json:"data,omitempty"`              // Anthropic redacted_thinking data
	EncryptedContent json.RawMessage `json:"encrypted_content,omitempty"` // OpenAI Responses reasoning

	// Media (image, document).
	MediaType string          `json:"media_type,omitempty"`
	Source    json.RawMessage `json:"source,omitempty"` // the wire's media source object or URL, raw

	// Tool calls and results.
	ID     string          `json:"id,omitempty"`      // tool call id (tool_use.id, tool_calls[].id, call_id, functionCall.id)
	ItemID string          `json:"item_id,omitempty"` // OpenAI Responses item id (rs_…, fc_…, msg_…)
	Name   string          `json:"name,omitempty"`    // tool name
	Input  json.RawMessage `json:"input,omitempty"`   // tool arguments exactly as on the wire (object, or string for OpenAI)
	// ToolCallID links a tool_result to its call.
	ToolCallID string  `json:"tool_call_id,omitempty"`
	IsError    bool    `json:"is_error,omitempty"`
	Content    []Block `json:"content,omitempty"` // tool result content, reasoning summary parts
	// ResultRaw is a tool result's payload when it is not a block list:
	// an OpenAI output string, a Gemini functionResponse.response object.
	ResultRaw json.RawMessage `json:"result_raw,omitempty"`

	// Extra keeps every wire field the model does not name (cache_control,
	// citations, status…), values raw, so encoding loses nothing.
	Extra map[string]json.RawMessage `json:"extra,omitempty"`
	// Raw is the whole block as received when Type is BlockOther.
	Raw json.RawMessage `json:"raw,omitempty"`

	// Incomplete is set by a stream decoder on a block the stream started
	// but never finished (no content_block_stop, tool input that did not
	// parse, an item only ever .added): its content is what the deltas
	// built and must not be echoed as if complete. Encoders ignore it: it
	// is a decoded fact, never on the wire.
	Incomplete bool `json:"incomplete,omitempty"`
}

// Message is one entry of a conversation history.
type Message struct {
	Role Role `json:"role"`
	// Path is the JSON path of the message, e.g. "messages[3]" or "input[5]".
	Path   string  `json:"path,omitempty"`
	Blocks []Block `json:"blocks"`
	// ContentString is true when the wire carried content as a bare string
	// rather than a block list; encoders write it back the same way.
	ContentString bool `json:"content_string,omitempty"`
	// ContentNull is true when the wire carried "content": null.
	ContentNull bool `json:"content_null,omitempty"`
	// WireType is the item type for wires whose history is a list of typed
	// items (OpenAI Responses: "message", "reasoning", "function_call"…).
	WireType string `json:"wire_type,omitempty"`
	// Name is the optional author name (OpenAI "name").
	Name string `json:"name,omitempty"`
	// Ephemeral marks a message sent in the next request only and never
	// persisted to history (docs/reference-model.md, seed 000).
	Ephemeral bool                       `json:"ephemeral,omitempty"`
	Extra     map[string]json.RawMessage `json:"extra,omitempty"`
}

// Tool is a tool definition offered to the model.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Schema      json.RawMessage `json:"schema,omitempty"`
	// Raw is the whole definition as received.
	Raw json.RawMessage `json:"raw,omitempty"`
}

// Thinking is a request's reasoning configuration, normalised.
type Thinking struct {
	Type         string          `json:"type,omitempty"` // enabled, adaptive, disabled; "" when absent
	BudgetTokens int             `json:"budget_tokens,omitempty"`
	Raw          json.RawMessage `json:"raw,omitempty"` // the wire value
}

// Request is a decoded request body.
type Request struct {
	Wire   Wire    `json:"wire"`
	Model  string  `json:"model,omitempty"`
	Stream bool    `json:"stream,omitempty"`
	System []Block `json:"system,omitempty"` // top-level system prompt (Anthropic system, Responses instructions, Gemini systemInstruction)
	// SystemString is true when the system prompt was a bare string.
	SystemString bool      `json:"system_string,omitempty"`
	Messages     []Message `json:"messages"`
	// InputString is true when the history was one bare string (Responses input).
	InputString bool            `json:"input_string,omitempty"`
	Tools       []Tool          `json:"tools,omitempty"`
	ToolChoice  json.RawMessage `json:"tool_choice,omitempty"`
	Thinking    *Thinking       `json:"thinking,omitempty"`
	MaxTokens   int             `json:"max_tokens,omitempty"`

	// OpenAI Responses state.
	Store              *bool    `json:"store,omitempty"`
	PreviousResponseID string   `json:"previous_response_id,omitempty"`
	Include            []string `json:"include,omitempty"`

	// Extra keeps every other top-level field, values raw.
	Extra map[string]json.RawMessage `json:"extra,omitempty"`

	// Notes say where the codec read a lenient form the provider accepts
	// (one value for a repeated field, a number as a string) or had to
	// guess; each is reported as info, and the checks still run.
	Notes []string `json:"notes,omitempty"`
}

// Usage is token accounting of one response.
type Usage struct {
	InputTokens         int `json:"input_tokens,omitempty"`
	OutputTokens        int `json:"output_tokens,omitempty"`
	CacheReadTokens     int `json:"cache_read_tokens,omitempty"`
	CacheCreationTokens int `json:"cache_creation_tokens,omitempty"`
	ReasoningTokens     int `json:"reasoning_tokens,omitempty"`
}

// APIError is an error the provider returned, in a body or inside a stream.
type APIError struct {
	Type    string `json:"type,omitempty"` // invalid_request_error, overloaded_error, INVALID_ARGUMENT…
	Code    string `json:"code,omitempty"`
	Message string `json:"message"`
	Param   string `json:"param,omitempty"`
}

// Response is a decoded response body, a JSON document or a reassembled stream.
type Response struct {
	Wire  Wire   `json:"wire"`
	ID    string `json:"id,omitempty"`
	Model string `json:"model,omitempty"`
	// Output is what the model produced, in order. For wires with a single
	// message (Anthropic, chat, Gemini's first candidate) it is one assistant
	// message; for Responses it is one message per output item.
	Output     []Message `json:"output"`
	StopReason string    `json:"stop_reason,omitempty"` // stop_reason, finish_reason, finishReason
	Status     string    `json:"status,omitempty"`      // Responses status
	Usage      *Usage    `json:"usage,omitempty"`
	Error      *APIError `json:"error,omitempty"`  // an error body (non-2xx) or a stream's error event
	Stream     *Stream   `json:"stream,omitempty"` // set when the body was a stream
}

// Stream holds what was learned while reassembling a streamed body.
type Stream struct {
	Events int `json:"events"`
	// Complete is true only when the stream reached its terminal event
	// (message_stop, [DONE], response.completed, a final finishReason).
	Complete bool `json:"complete"`
	// Truncated is true when the body ended before the terminal event.
	Truncated bool `json:"truncated,omitempty"`
	// Error is the error event carried inside the stream, if any.
	Error *APIError `json:"error,omitempty"`
	// Issues are grammar violations found while reassembling.
	Issues []StreamIssue `json:"issues,omitempty"`
	// Partial lists the indexes in Response.Output of messages the stream
	// started but never finished (no done/stop event): they hold only what the
	// deltas built and must not be echoed as if complete.
	Partial []int `json:"partial,omitempty"`
	// Offsets are each event's byte offset in the body, in order.
	Offsets []int `json:"-"`
}

// StreamIssue is one stream-grammar violation, named by the check it breaks.
type StreamIssue struct {
	Check   string `json:"check"`   // e.g. ANT-STREAM-002
	Event   int    `json:"event"`   // 0-based event index
	Message string `json:"message"` // what was wrong, with the event's values
	// Truncation marks the issue "ended before its terminal event": the
	// stream was cut (the client stopped reading, the connection dropped),
	// which degrades the response but breaks no grammar rule on its own.
	Truncation bool `json:"truncation,omitempty"`
	// Tolerated marks a departure the provider's SDK reads past (it skips
	// or ignores the part): the response may lose something, silently, but
	// no client fails on it. OpenAI-compatible servers commit these often.
	Tolerated bool `json:"tolerated,omitempty"`
}

// Fact names used in stream summaries and reports.
const (
	FactTruncated   = "truncated"
	FactStreamError = "stream_error"
)

// Facts lists the stream's facts by name, for summaries.
func (s *Stream) Facts() []string {
	if s == nil {
		return nil
	}
	var f []string
	if s.Truncated {
		f = append(f, FactTruncated)
	}
	if s.Error != nil {
		f = append(f, FactStreamError)
	}
	for _, is := range s.Issues {
		f = append(f, is.Check)
	}
	return f
}

// Signed reports whether the block carries a provider-signed payload: a
// signature, redacted data or encrypted content.
func (b *Block) Signed() bool {
	return len(b.Signature) > 0 || len(b.Data) > 0 || len(b.EncryptedContent) > 0
}
