package engine

// The REPL events of docs/reference-model.md, seed 004: a tool that runs code
// (a REPL) reports its input, its streamed output and its result with them,
// through ToolContext.Emit. The reference harness has no such tool of its own;
// the events are here so one can be written against the seed's names.
const (
	EventReplInput    EventType = "repl_input"
	EventReplProgress EventType = "repl_progress"
	EventReplOutput   EventType = "repl_output"
)

// ReplInputEvent is code sent to a REPL.
type ReplInputEvent struct {
	EventHeader
	ID        string `json:"id"`
	Code      string `json:"code"`
	Iteration int    `json:"iteration,omitempty"`
}

// ReplProgressEvent is a chunk of a REPL's output as it is produced.
type ReplProgressEvent struct {
	EventHeader
	ID     string `json:"id"`
	Chunk  string `json:"chunk"`
	Stream string `json:"stream"` // "stdout" or "stderr"
}

// ReplOutputEvent is what a REPL run produced.
type ReplOutputEvent struct {
	EventHeader
	ID         string `json:"id"`
	Stdout     string `json:"stdout"`
	Error      string `json:"error,omitempty"`
	Done       bool   `json:"done"`
	Iteration  int    `json:"iteration,omitempty"`
	DurationMs int64  `json:"durationMs,omitempty"`
	Truncated  bool   `json:"truncated,omitempty"`
}

func (ReplInputEvent) Type() EventType    { return EventReplInput }
func (ReplProgressEvent) Type() EventType { return EventReplProgress }
func (ReplOutputEvent) Type() EventType   { return EventReplOutput }
