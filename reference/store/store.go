// Package store is the message-store contract
// (docs/reference-model.md, seed 002): the persistence record of a conversation
// message, the MessageStore interface, and the rules every implementation
// shares.
package store

import (
	"errors"
	"time"
)

// Type is the kind of a stored message.
type Type string

const (
	TypeUser      Type = "user"
	TypeAssistant Type = "assistant"
	TypeTool      Type = "tool"
)

// Message is the persistence record of one conversation message. It is not
// the wire model (traffic.Message): Content is text, or whatever encoding of
// a richer message the application chooses.
type Message struct {
	ID              string // unique across conversations
	ConversationID  string
	ParentMessageID string // optional parent (threading/turn)
	Type            Type   // user | assistant | tool
	Role            string // optional role, e.g. "system"
	ToolName        string // when Type is tool
	CreatedAt       time.Time
	// Content is the primary textual content.
	Content string
	// Summary is a short retained summary (recommended ≤ 256 characters)
	// kept when the message is compacted or removed.
	Summary string
	// Removed flags the message as logically removed; Summary stays.
	Removed   bool
	RemovedAt *time.Time
	Tags      []string  // optional labels, e.g. "duplicate", "large-output"
	Embedding []float32 // vector for semantic search; nil when none
}

// Filter selects messages of one conversation.
type Filter struct {
	Types          []Type     // any of these types; empty means all
	OlderThan      *time.Time // CreatedAt strictly before this
	Limit          int        // > 0: keep only the newest Limit matches
	IncludeRemoved bool       // include logically removed messages
}

// CandidateOptions control a candidate listing.
type CandidateOptions struct {
	Filter
	// PreviewRunes is the preview's length in characters; 0 means
	// DefaultPreviewRunes.
	PreviewRunes int
}

// DefaultPreviewRunes is the preview length when none is asked for.
const DefaultPreviewRunes = 120

// Preview is a compact, human-readable excerpt of a message.
type Preview struct {
	Text      string // whitespace runs collapsed to one space, at most PreviewRunes characters
	Truncated bool   // Text is shorter than the content
}

// Candidate is a message with the sizing and preview shown when proposing
// removal or compaction.
type Candidate struct {
	Message *Message
	Bytes   int // UTF-8 bytes of Content
	Runes   int // characters of Content
	Tokens  int // estimated tokens of Content: ⌈Runes / 4⌉
	Preview Preview
}

// MessageStore persists messages. The semantics every implementation keeps,
// and that conformance.TestMessageStore enforces:
//
//   - IDs are unique across conversations; Put of an existing ID replaces
//     that message, wherever it was.
//   - Put rejects (with ErrInvalid) a message without ID or ConversationID,
//     with a Type other than user, assistant or tool, with a zero CreatedAt
//     or one outside the years 1678–2262 (what nanosecond Unix time holds).
//     It stores a copy; times come back in UTC, equal to what was put.
//   - Get returns the messages of the conversation with the given ids, in
//     the order of ids; an unknown id (or one of another conversation) is
//     left out, not an error. Removed messages are returned.
//   - List and ListCandidates return matches ordered by CreatedAt, then ID.
//     A Limit keeps the newest matches (the tail of a conversation), still
//     oldest first.
//   - UpdateSummary, MarkRemoved and UpdateEmbedding on an unknown id fail
//     with ErrNotFound.
//   - MarkRemoved(id, true, nil) stamps the current time; MarkRemoved(id,
//     false, _) clears RemovedAt. Summary is kept either way.
//   - UpdateEmbedding(id, nil) clears the embedding.
//   - Every method is safe for concurrent use.
type MessageStore interface {
	Get(conversationID string, ids ...string) ([]*Message, error)
	List(conversationID string, filter Filter) ([]*Message, error)
	Put(msg *Message) error
	UpdateSummary(messageID string, summary string) error
	MarkRemoved(messageID string, removed bool, removedAt *time.Time) error
	UpdateEmbedding(messageID string, embedding []float32) error
	ListCandidates(conversationID string, opts CandidateOptions) ([]Candidate, error)
}

// Errors the contract names; implementations wrap them with details.
var (
	ErrNotFound = errors.New("message not found")
	ErrInvalid  = errors.New("invalid message")
)

// PayloadStore is a MessageStore that also keeps, beside each message's
// text, an opaque payload of the application's choosing:
// docs/reference-model.md, seed 002, leaves "binary/large payloads" to an
// external reference in services that implement the store. The reference
// harness keeps each message's full wire form there (signed thinking, redacted
// data, tool arguments), so a conversation resumed from the store is echoed
// byte-exact.
type PayloadStore interface {
	MessageStore
	// PutPayload sets the payload of a stored message; ErrNotFound when
	// there is no such message.
	PutPayload(messageID string, payload []byte) error
	// Payload returns a copy of the message's payload; nil when it has none,
	// ErrNotFound when there is no such message.
	Payload(messageID string) ([]byte, error)
}
