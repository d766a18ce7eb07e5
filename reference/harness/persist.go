package harness

import (
	"fmt"
	"strings"
	"time"

	"github.com/llmtck/llmtck/engine"
	"github.com/llmtck/llmtck/engine/store"
)

// batchStore is a store that can put a whole history in one transaction.
type batchStore interface {
	PutAll(msgs []*store.Message) error
}

// persist writes the history to the store: message i of the history as
// "<conversation>/<i>", its text as Content, what else it held as Tags.
// Ephemeral messages are never in the history, so never stored.
func (r *Run) persist() error {
	base := time.Now().UTC()
	var recs []*store.Message
	for i, m := range r.tr.Messages() {
		rec := record(m, r.tr.Note(i))
		rec.ID = fmt.Sprintf("%s/%d", r.p.ConversationID, i)
		rec.ConversationID = r.p.ConversationID
		rec.CreatedAt = base.Add(time.Duration(i) * time.Microsecond) // keeps history order
		recs = append(recs, rec)
	}
	if b, ok := r.p.Store.(batchStore); ok {
		if err := b.PutAll(recs); err != nil {
			return fmt.Errorf("persisting the history: %w", err)
		}
		return nil
	}
	for _, rec := range recs {
		if err := r.p.Store.Put(rec); err != nil {
			return fmt.Errorf("persisting the history: %w", err)
		}
	}
	return nil
}

// record is the store's view of a message: its readable text and tags.
func record(m engine.Message, n engine.Note) *store.Message {
	rec := &store.Message{Role: string(m.Role), Type: store.TypeUser}
	switch m.Role {
	case engine.RoleAssistant:
		rec.Type = store.TypeAssistant
	case engine.RoleTool:
		rec.Type = store.TypeTool
	}
	var text []string
	tag := func(t string) {
		for _, have := range rec.Tags {
			if have == t {
				return
			}
		}
		rec.Tags = append(rec.Tags, t)
	}
	for _, b := range m.Blocks {
		switch b.Type {
		case engine.BlockText:
			text = append(text, b.Text)
		case engine.BlockToolCall:
			text = append(text, fmt.Sprintf("→ %s(%s)", b.Name, b.Input))
			tag("tool_call")
		case engine.BlockToolResult:
			rec.ToolName = b.Name
			for _, c := range b.Content {
				text = append(text, c.Text)
			}
			tag("tool_result")
			if b.IsError {
				tag("error")
			}
		default:
			tag(string(b.Type))
		}
	}
	if n.Truncated {
		tag("truncated")
	}
	if n.Cancelled {
		tag("cancelled")
	}
	rec.Content = strings.Join(text, "\n")
	return rec
}
