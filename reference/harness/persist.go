package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/reference/engine"
	"github.com/llmtck/llmtck/reference/store"
	"github.com/llmtck/llmtck/traffic"
)

// persist writes the history to the store (docs/reference-model.md, seeds 001
// and 002). The stored conversation's live rows that still begin the history
// stay as they are; the live rows after them were replaced (a compaction, a
// context reset) and are marked removed, keeping as their summary the text of
// what replaced them; the rest of the history is added as new rows. A store
// that keeps payloads (store.PayloadStore) also gets each message's full wire
// form, so Resume gives it back byte-exact: signed thinking, redacted data and
// tool arguments included. Ephemeral messages are never in the history, so
// never stored.
func (r *Run) persist() error {
	s, conv := r.p.Store, r.p.ConversationID
	all, err := s.List(conv, store.Filter{IncludeRemoved: true})
	if err != nil {
		return fmt.Errorf("persisting the history: %w", err)
	}
	var live []*store.Message
	last := time.Time{}
	for _, m := range all {
		if !m.Removed {
			live = append(live, m)
		}
		if m.CreatedAt.After(last) {
			last = m.CreatedAt
		}
	}
	msgs := r.tr.Messages()
	keep := 0
	for keep < len(live) && keep < len(msgs) && stored(s, live[keep], msgs[keep], r.tr.Note(keep)) {
		keep++
	}
	if keep < len(live) {
		summary := "replaced"
		if keep < len(msgs) {
			summary = shorten(record(msgs[keep], engine.Note{}).Content, 256)
		}
		now := time.Now().UTC()
		for _, row := range live[keep:] {
			if err := s.UpdateSummary(row.ID, summary); err != nil {
				return fmt.Errorf("persisting the history: %w", err)
			}
			if err := s.MarkRemoved(row.ID, true, &now); err != nil {
				return fmt.Errorf("persisting the history: %w", err)
			}
		}
	}
	base := time.Now().UTC()
	if !base.After(last) {
		base = last.Add(time.Microsecond)
	}
	next := len(all)
	for i := keep; i < len(msgs); i++ {
		rec := record(msgs[i], r.tr.Note(i))
		rec.ID = fmt.Sprintf("%s/%d", conv, next)
		rec.ConversationID = conv
		rec.CreatedAt = base.Add(time.Duration(i-keep) * time.Microsecond) // keeps history order
		next++
		if err := s.Put(rec); err != nil {
			return fmt.Errorf("persisting the history: %w", err)
		}
		if ps, ok := s.(store.PayloadStore); ok {
			wire, err := rawjson.Marshal(msgs[i])
			if err == nil {
				err = ps.PutPayload(rec.ID, wire)
			}
			if err != nil {
				return fmt.Errorf("persisting the history: %w", err)
			}
		}
	}
	return nil
}

// stored reports whether row already holds m: its payload when the store
// keeps them, else its text, type and tags.
func stored(s store.MessageStore, row *store.Message, m traffic.Message, n engine.Note) bool {
	if ps, ok := s.(store.PayloadStore); ok {
		p, err := ps.Payload(row.ID)
		wire, _ := rawjson.Marshal(m)
		return err == nil && string(p) == string(wire)
	}
	rec := record(m, n)
	return row.Type == rec.Type && row.Content == rec.Content && strings.Join(row.Tags, ",") == strings.Join(rec.Tags, ",")
}

// shorten cuts s to at most n characters.
func shorten(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// Resume reads a conversation back from the store, for the next
// invocation's Messages: its live rows in order. A row with a payload (a
// store.PayloadStore written by this harness) is the exact message that was
// stored; without one, the message is rebuilt from its text, which loses
// what text cannot hold (thinking signatures among it), and Resume says so.
func Resume(s store.MessageStore, conversationID string) ([]traffic.Message, error) {
	rows, err := s.List(conversationID, store.Filter{})
	if err != nil {
		return nil, fmt.Errorf("resuming %s: %w", conversationID, err)
	}
	ps, _ := s.(store.PayloadStore)
	var out []traffic.Message
	var lossy []string
	for _, row := range rows {
		var p []byte
		if ps != nil {
			if p, err = ps.Payload(row.ID); err != nil {
				return nil, fmt.Errorf("resuming %s: %w", conversationID, err)
			}
		}
		if p == nil {
			out = append(out, fromText(row))
			lossy = append(lossy, row.ID)
			continue
		}
		var m traffic.Message
		if err := json.Unmarshal(p, &m); err != nil {
			return nil, fmt.Errorf("resuming %s: message %s: %w", conversationID, row.ID, err)
		}
		out = append(out, m)
	}
	if len(lossy) > 0 {
		return out, &LossyResumeError{IDs: lossy}
	}
	return out, nil
}

// LossyResumeError says which messages Resume rebuilt from their text.
type LossyResumeError struct{ IDs []string }

func (e *LossyResumeError) Error() string {
	return fmt.Sprintf("resumed from text only (the store kept no payload): %s", strings.Join(e.IDs, ", "))
}

// IsLossy reports whether err is a LossyResumeError: the messages came
// back, but some only as text.
func IsLossy(err error) bool {
	var l *LossyResumeError
	return errors.As(err, &l)
}

// fromText rebuilds a message from a row without a payload.
func fromText(row *store.Message) traffic.Message {
	role := traffic.Role(row.Role)
	if role == "" {
		role = traffic.RoleUser
		if row.Type == store.TypeAssistant {
			role = traffic.RoleAssistant
		}
	}
	return traffic.Message{Role: role, Blocks: []traffic.Block{{Type: traffic.BlockText, Text: row.Content}}}
}

// record is the store's view of a message: its readable text and tags.
func record(m traffic.Message, n engine.Note) *store.Message {
	rec := &store.Message{Role: string(m.Role), Type: store.TypeUser}
	switch m.Role {
	case traffic.RoleAssistant:
		rec.Type = store.TypeAssistant
	case traffic.RoleTool:
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
		case traffic.BlockText:
			text = append(text, b.Text)
		case traffic.BlockToolCall:
			text = append(text, fmt.Sprintf("→ %s(%s)", b.Name, b.Input))
			tag("tool_call")
		case traffic.BlockToolResult:
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
