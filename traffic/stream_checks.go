package traffic

// The stream-grammar checks, declared once: a codec reports each fault it
// finds while reassembling a stream as a StreamIssue under one of these
// IDs, and the catalogue's stream family names and explains them.
const (
	CheckAnthropicStream     = "ANT-STREAM-001" // event order: message_start … message_delta, message_stop
	CheckAnthropicBlockIndex = "ANT-STREAM-002" // block indices contiguous; deltas and stops only for open blocks
	CheckAnthropicDeltaType  = "ANT-STREAM-003" // delta type matches the block type
	CheckAnthropicToolInput  = "ANT-STREAM-004" // partial_json concatenates to a JSON object
	CheckChatStream          = "OAI-STREAM-001" // Chat Completions chunks and tool-call fragments
	CheckResponsesStream     = "OAI-STREAM-002" // Responses sequence numbers, items, terminal event
	CheckGeminiStream        = "GEM-STREAM-001" // Gemini chunks and finishReason
	CheckBedrockStream       = "BDR-STREAM-001" // ConverseStream events: messageStart … messageStop
)
