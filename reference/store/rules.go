package store

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// The CreatedAt range every store accepts: what int64 Unix nanoseconds
// hold, so a SQL store can keep times exactly.
var (
	MinTime = time.Unix(0, -1<<63).UTC()
	MaxTime = time.Unix(0, 1<<63-1).UTC()
)

// Check returns an ErrInvalid error naming the field m gets wrong, or nil.
func Check(m *Message) error {
	switch {
	case m == nil:
		return fmt.Errorf("%w: nil message", ErrInvalid)
	case m.ID == "":
		return fmt.Errorf("%w: empty ID", ErrInvalid)
	case m.ConversationID == "":
		return fmt.Errorf("%w: message %s: empty ConversationID", ErrInvalid, m.ID)
	case m.Type != TypeUser && m.Type != TypeAssistant && m.Type != TypeTool:
		return fmt.Errorf("%w: message %s: Type %q, want user, assistant or tool", ErrInvalid, m.ID, m.Type)
	case m.CreatedAt.IsZero():
		return fmt.Errorf("%w: message %s: zero CreatedAt", ErrInvalid, m.ID)
	}
	if err := CheckTime(m.CreatedAt); err != nil {
		return fmt.Errorf("%w: message %s: CreatedAt %v", ErrInvalid, m.ID, err)
	}
	if m.RemovedAt != nil {
		if err := CheckTime(*m.RemovedAt); err != nil {
			return fmt.Errorf("%w: message %s: RemovedAt %v", ErrInvalid, m.ID, err)
		}
	}
	return nil
}

// CheckTime rejects a time outside MinTime–MaxTime.
func CheckTime(t time.Time) error {
	if t.Before(MinTime) || t.After(MaxTime) {
		return fmt.Errorf("%s is outside %d–%d", t.Format(time.RFC3339), MinTime.Year(), MaxTime.Year())
	}
	return nil
}

// Clone returns a deep copy of m with times in UTC, no monotonic reading,
// and empty Tags and Embedding as nil: the form every store returns.
func Clone(m *Message) *Message {
	c := *m
	c.CreatedAt = m.CreatedAt.UTC().Round(0)
	if m.RemovedAt != nil {
		t := m.RemovedAt.UTC().Round(0)
		c.RemovedAt = &t
	}
	c.Tags = nil
	if len(m.Tags) > 0 {
		c.Tags = slices.Clone(m.Tags)
	}
	c.Embedding = nil
	if len(m.Embedding) > 0 {
		c.Embedding = slices.Clone(m.Embedding)
	}
	return &c
}

// Matches reports whether m passes f (Limit aside).
func Matches(m *Message, f Filter) bool {
	if m.Removed && !f.IncludeRemoved {
		return false
	}
	if f.OlderThan != nil && !m.CreatedAt.Before(*f.OlderThan) {
		return false
	}
	return len(f.Types) == 0 || slices.Contains(f.Types, m.Type)
}

// Compare orders messages by CreatedAt, then ID.
func Compare(a, b *Message) int {
	if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}

// Newest keeps the last limit messages of sorted ms (all when limit ≤ 0).
func Newest(ms []*Message, limit int) []*Message {
	if limit > 0 && len(ms) > limit {
		return ms[len(ms)-limit:]
	}
	return ms
}

// NewCandidate sizes m and builds its preview of previewRunes characters
// (DefaultPreviewRunes when ≤ 0).
func NewCandidate(m *Message, previewRunes int) Candidate {
	if previewRunes <= 0 {
		previewRunes = DefaultPreviewRunes
	}
	runes := utf8.RuneCountInString(m.Content)
	return Candidate{
		Message: m,
		Bytes:   len(m.Content),
		Runes:   runes,
		Tokens:  (runes + 3) / 4,
		Preview: NewPreview(m.Content, previewRunes),
	}
}

// NewPreview collapses each whitespace run of s to one space and keeps the
// first n characters, marking the preview Truncated when more followed.
func NewPreview(s string, n int) Preview {
	text := strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(text) <= n {
		return Preview{Text: text}
	}
	i, count := 0, 0
	for i = range text {
		if count == n {
			break
		}
		count++
	}
	return Preview{Text: text[:i], Truncated: true}
}
