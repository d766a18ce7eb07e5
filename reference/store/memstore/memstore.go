// Package memstore is an in-memory MessageStore, for tests and short-lived
// harnesses.
package memstore

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/llmtck/llmtck/reference/store"
)

// Store keeps messages in memory. The zero value is not usable; call New.
type Store struct {
	mu       sync.RWMutex
	byID     map[string]*store.Message
	payloads map[string][]byte
	now      func() time.Time
}

// New returns an empty store.
func New() *Store {
	return &Store{byID: map[string]*store.Message{}, payloads: map[string][]byte{}, now: time.Now}
}

var _ store.PayloadStore = (*Store)(nil)

// PutPayload sets the payload of a stored message.
func (s *Store) PutPayload(id string, payload []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byID[id] == nil {
		return fmt.Errorf("%w: %s", store.ErrNotFound, id)
	}
	s.payloads[id] = slices.Clone(payload)
	return nil
}

// Payload returns a copy of a message's payload.
func (s *Store) Payload(id string) ([]byte, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.byID[id] == nil {
		return nil, fmt.Errorf("%w: %s", store.ErrNotFound, id)
	}
	return slices.Clone(s.payloads[id]), nil
}

// Get returns the conversation's messages with the given ids, in the order
// of ids, leaving out unknown ones.
func (s *Store) Get(conversationID string, ids ...string) ([]*store.Message, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := []*store.Message{}
	for _, id := range ids {
		if m, ok := s.byID[id]; ok && m.ConversationID == conversationID {
			out = append(out, store.Clone(m))
		}
	}
	return out, nil
}

// List returns the matching messages, oldest first; a Limit keeps the newest.
func (s *Store) List(conversationID string, f store.Filter) ([]*store.Message, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var match []*store.Message
	for _, m := range s.byID {
		if m.ConversationID == conversationID && store.Matches(m, f) {
			match = append(match, m)
		}
	}
	slices.SortFunc(match, store.Compare)
	match = store.Newest(match, f.Limit)
	out := make([]*store.Message, len(match))
	for i, m := range match {
		out[i] = store.Clone(m)
	}
	return out, nil
}

// Put inserts msg or replaces the message with its ID.
func (s *Store) Put(msg *store.Message) error {
	if err := store.Check(msg); err != nil {
		return err
	}
	c := store.Clone(msg)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byID[c.ID] = c
	return nil
}

func (s *Store) update(id string, f func(m *store.Message)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.byID[id]
	if !ok {
		return fmt.Errorf("%w: %s", store.ErrNotFound, id)
	}
	// Replace rather than edit in place: a reader may hold the old copy.
	c := store.Clone(m)
	f(c)
	s.byID[id] = c
	return nil
}

// UpdateSummary sets the message's summary.
func (s *Store) UpdateSummary(id, summary string) error {
	return s.update(id, func(m *store.Message) { m.Summary = summary })
}

// MarkRemoved flags or unflags the message; the summary stays.
func (s *Store) MarkRemoved(id string, removed bool, removedAt *time.Time) error {
	var at *time.Time
	if removed {
		t := s.now()
		if removedAt != nil {
			t = *removedAt
		}
		t = t.UTC().Round(0)
		if err := store.CheckTime(t); err != nil {
			return fmt.Errorf("%w: message %s: RemovedAt %v", store.ErrInvalid, id, err)
		}
		at = &t
	}
	return s.update(id, func(m *store.Message) { m.Removed, m.RemovedAt = removed, at })
}

// UpdateEmbedding sets the message's embedding; nil clears it.
func (s *Store) UpdateEmbedding(id string, embedding []float32) error {
	e := slices.Clone(embedding)
	if len(e) == 0 {
		e = nil
	}
	return s.update(id, func(m *store.Message) { m.Embedding = e })
}

// ListCandidates is List with sizes and previews.
func (s *Store) ListCandidates(conversationID string, opts store.CandidateOptions) ([]store.Candidate, error) {
	ms, err := s.List(conversationID, opts.Filter)
	if err != nil {
		return nil, err
	}
	out := make([]store.Candidate, len(ms))
	for i, m := range ms {
		out[i] = store.NewCandidate(m, opts.PreviewRunes)
	}
	return out, nil
}
