// Package storetest holds the message-store contract as a test any store
// implementation runs on itself, as testing/fstest does for file systems.
package storetest

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmtck/llmtck/reference/store"
)

// TestMessageStore runs the message-store contract
// (docs/reference-model.md, seed 002, with the semantics documented on
// store.MessageStore) against stores made by newStore, one fresh store per
// subtest, like nettest.TestConn. A store package runs it on its own
// implementation:
//
//	func TestMyStore(t *testing.T) {
//		storetest.TestMessageStore(t, func(t *testing.T) store.MessageStore { return mystore.New() })
//	}
func TestMessageStore(t *testing.T, newStore func(t *testing.T) store.MessageStore) {
	t.Helper()
	for _, c := range storeContract {
		t.Run(c.name, func(t *testing.T) { c.run(t, newStore(t)) })
	}
}

var storeContract = []struct {
	name string
	run  func(t *testing.T, s store.MessageStore)
}{
	{"PutGetRoundTrip", testPutGetRoundTrip},
	{"PutReplaces", testPutReplaces},
	{"PutRejectsInvalid", testPutRejectsInvalid},
	{"PutAndGetCopy", testPutAndGetCopy},
	{"GetOrderAndUnknownIDs", testGetOrder},
	{"ListOrder", testListOrder},
	{"ListFilter", testListFilter},
	{"UpdateSummary", testUpdateSummary},
	{"MarkRemoved", testMarkRemoved},
	{"UpdateEmbedding", testUpdateEmbedding},
	{"ListCandidates", testListCandidates},
	{"ConcurrentWriters", testConcurrentWriters},
}

var epoch = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// msg returns a user message of conversation conv created minute minutes
// after epoch.
func msg(conv, id string, minute int) *store.Message {
	return &store.Message{ID: id, ConversationID: conv, Type: store.TypeUser,
		CreatedAt: epoch.Add(time.Duration(minute) * time.Minute), Content: "content of " + id}
}

func put(t *testing.T, s store.MessageStore, ms ...*store.Message) {
	t.Helper()
	for _, m := range ms {
		if err := s.Put(m); err != nil {
			t.Fatalf("Put(%s): %v", m.ID, err)
		}
	}
}

func get1(t *testing.T, s store.MessageStore, conv, id string) *store.Message {
	t.Helper()
	ms, err := s.Get(conv, id)
	if err != nil {
		t.Fatalf("Get(%s, %s): %v", conv, id, err)
	}
	if len(ms) != 1 {
		t.Fatalf("Get(%s, %s) returned %d messages, want 1", conv, id, len(ms))
	}
	return ms[0]
}

func idsOf(ms []*store.Message) string {
	var s []string
	for _, m := range ms {
		s = append(s, m.ID)
	}
	return strings.Join(s, ",")
}

func list(t *testing.T, s store.MessageStore, conv string, f store.Filter) string {
	t.Helper()
	ms, err := s.List(conv, f)
	if err != nil {
		t.Fatalf("List(%s, %+v): %v", conv, f, err)
	}
	return idsOf(ms)
}

// diff names the first field where got differs from want, or "".
func diff(got, want *store.Message) string {
	floatsEqual := func(a, b []float32) bool {
		return slices.EqualFunc(a, b, func(x, y float32) bool { return math.Float32bits(x) == math.Float32bits(y) })
	}
	timeEqual := func(a, b *time.Time) bool {
		return a == nil && b == nil || a != nil && b != nil && a.Equal(*b) && a.Location() == time.UTC
	}
	switch {
	case got.ID != want.ID:
		return fmt.Sprintf("ID %q, want %q", got.ID, want.ID)
	case got.ConversationID != want.ConversationID:
		return fmt.Sprintf("ConversationID %q, want %q", got.ConversationID, want.ConversationID)
	case got.ParentMessageID != want.ParentMessageID:
		return fmt.Sprintf("ParentMessageID %q, want %q", got.ParentMessageID, want.ParentMessageID)
	case got.Type != want.Type || got.Role != want.Role || got.ToolName != want.ToolName:
		return fmt.Sprintf("Type/Role/ToolName %q/%q/%q, want %q/%q/%q", got.Type, got.Role, got.ToolName, want.Type, want.Role, want.ToolName)
	case !got.CreatedAt.Equal(want.CreatedAt) || got.CreatedAt.Location() != time.UTC:
		return fmt.Sprintf("CreatedAt %v, want %v in UTC", got.CreatedAt, want.CreatedAt)
	case got.Content != want.Content:
		return fmt.Sprintf("Content %q, want %q", got.Content, want.Content)
	case got.Summary != want.Summary:
		return fmt.Sprintf("Summary %q, want %q", got.Summary, want.Summary)
	case got.Removed != want.Removed || !timeEqual(got.RemovedAt, want.RemovedAt):
		return fmt.Sprintf("Removed %v at %v, want %v at %v (UTC)", got.Removed, got.RemovedAt, want.Removed, want.RemovedAt)
	case !slices.Equal(got.Tags, want.Tags):
		return fmt.Sprintf("Tags %q, want %q", got.Tags, want.Tags)
	case !floatsEqual(got.Embedding, want.Embedding):
		return fmt.Sprintf("Embedding %v, want %v", got.Embedding, want.Embedding)
	}
	return ""
}

func testPutGetRoundTrip(t *testing.T, s store.MessageStore) {
	paris := time.FixedZone("CEST", 2*3600)
	removedAt := time.Date(2025, 6, 2, 8, 0, 0, 123456789, paris)
	full := &store.Message{
		ID: "m1", ConversationID: "c1", ParentMessageID: "m0",
		Type: store.TypeTool, Role: "tool", ToolName: "read_file",
		CreatedAt: time.Date(2025, 6, 1, 14, 30, 15, 987654321, paris),
		// Invalid UTF-8, a NUL, markup and an emoji all come back as put.
		Content: "line 1\n\x00 <tag> & \"quote\" \xff\xfe 🦀",
		Summary: "read a file", Removed: true, RemovedAt: &removedAt,
		Tags:      []string{"large-output", "duplicate", "<&>"},
		Embedding: []float32{0.25, -1.5, float32(math.Copysign(0, -1)), float32(math.Inf(1)), math.MaxFloat32, math.SmallestNonzeroFloat32},
	}
	put(t, s, full)
	if d := diff(get1(t, s, "c1", "m1"), full); d != "" {
		t.Errorf("Get after Put: %s", d)
	}
	minimal := msg("c1", "m2", 1)
	put(t, s, minimal)
	got := get1(t, s, "c1", "m2")
	if d := diff(got, minimal); d != "" {
		t.Errorf("minimal message: %s", d)
	}
	if got.Tags != nil || got.Embedding != nil || got.RemovedAt != nil {
		t.Errorf("empty fields came back as %#v %#v %v, want nil", got.Tags, got.Embedding, got.RemovedAt)
	}
}

func testPutReplaces(t *testing.T, s store.MessageStore) {
	put(t, s, msg("c1", "m1", 0), msg("c1", "m2", 1))
	repl := msg("c1", "m1", 5)
	repl.Content, repl.Type, repl.Summary = "edited", store.TypeAssistant, "s"
	put(t, s, repl)
	if d := diff(get1(t, s, "c1", "m1"), repl); d != "" {
		t.Errorf("after replacing: %s", d)
	}
	if got := list(t, s, "c1", store.Filter{}); got != "m2,m1" {
		t.Errorf("List = %s, want m2,m1 (one m1, at its new time)", got)
	}
	// IDs are unique across conversations: Put moves the message.
	put(t, s, msg("c2", "m1", 0))
	if got := list(t, s, "c1", store.Filter{}); got != "m2" {
		t.Errorf("List(c1) = %s, want m2", got)
	}
	if got := list(t, s, "c2", store.Filter{}); got != "m1" {
		t.Errorf("List(c2) = %s, want m1", got)
	}
}

func testPutRejectsInvalid(t *testing.T, s store.MessageStore) {
	year3000 := time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		edit func(m *store.Message) *store.Message
	}{
		{"nil", func(*store.Message) *store.Message { return nil }},
		{"no ID", func(m *store.Message) *store.Message { m.ID = ""; return m }},
		{"no ConversationID", func(m *store.Message) *store.Message { m.ConversationID = ""; return m }},
		{"unknown Type", func(m *store.Message) *store.Message { m.Type = "system"; return m }},
		{"empty Type", func(m *store.Message) *store.Message { m.Type = ""; return m }},
		{"zero CreatedAt", func(m *store.Message) *store.Message { m.CreatedAt = time.Time{}; return m }},
		{"CreatedAt past 2262", func(m *store.Message) *store.Message { m.CreatedAt = year3000; return m }},
		{"RemovedAt past 2262", func(m *store.Message) *store.Message { m.RemovedAt = &year3000; return m }},
	}
	for _, tt := range tests {
		err := s.Put(tt.edit(msg("c1", "bad", 0)))
		if !errors.Is(err, store.ErrInvalid) {
			t.Errorf("%s: Put err = %v, want ErrInvalid", tt.name, err)
		}
	}
	if got := list(t, s, "c1", store.Filter{IncludeRemoved: true}); got != "" {
		t.Errorf("invalid messages were stored: %s", got)
	}
}

func testPutAndGetCopy(t *testing.T, s store.MessageStore) {
	m := msg("c1", "m1", 0)
	m.Tags, m.Embedding = []string{"a"}, []float32{1, 2}
	put(t, s, m)
	m.Tags[0], m.Embedding[0], m.Content = "changed", 9, "changed"
	got := get1(t, s, "c1", "m1")
	if got.Tags[0] != "a" || got.Embedding[0] != 1 || got.Content != "content of m1" {
		t.Fatalf("the store shares memory with the message given to Put: %+v", got)
	}
	got.Tags[0], got.Embedding[0] = "changed", 9
	again := get1(t, s, "c1", "m1")
	if again.Tags[0] != "a" || again.Embedding[0] != 1 {
		t.Fatalf("the store shares memory with a message it returned: %+v", again)
	}
	// List and ListCandidates hand out copies too.
	listed, err := s.List("c1", store.Filter{})
	if err != nil || len(listed) != 1 {
		t.Fatalf("List: %v %v", listed, err)
	}
	listed[0].Tags[0], listed[0].Embedding[0], listed[0].Content = "changed", 9, "changed"
	if again := get1(t, s, "c1", "m1"); again.Tags[0] != "a" || again.Embedding[0] != 1 || again.Content != "content of m1" {
		t.Fatalf("the store shares memory with a message List returned: %+v", again)
	}
	cs, err := s.ListCandidates("c1", store.CandidateOptions{})
	if err != nil || len(cs) != 1 {
		t.Fatalf("ListCandidates: %v %v", cs, err)
	}
	cs[0].Message.Tags[0], cs[0].Message.Summary = "changed", "changed"
	if again := get1(t, s, "c1", "m1"); again.Tags[0] != "a" || again.Summary != "" {
		t.Fatalf("the store shares memory with a candidate it returned: %+v", again)
	}
}

func testGetOrder(t *testing.T, s store.MessageStore) {
	put(t, s, msg("c1", "a", 0), msg("c1", "b", 1), msg("c1", "c", 2), msg("c2", "x", 0))
	removed := msg("c1", "r", 3)
	removed.Removed = true
	put(t, s, removed)
	tests := []struct {
		conv string
		ids  []string
		want string
	}{
		{"c1", []string{"c", "zz", "a"}, "c,a"}, // order of ids; unknown left out
		{"c1", []string{"x"}, ""},               // another conversation's message
		{"c1", []string{"r"}, "r"},              // removed messages are returned
		{"c1", nil, ""},
		{"nope", []string{"a"}, ""},
	}
	for _, tt := range tests {
		ms, err := s.Get(tt.conv, tt.ids...)
		if err != nil {
			t.Errorf("Get(%s, %v): %v", tt.conv, tt.ids, err)
			continue
		}
		if got := idsOf(ms); got != tt.want {
			t.Errorf("Get(%s, %v) = %s, want %s", tt.conv, tt.ids, got, tt.want)
		}
	}
}

func testListOrder(t *testing.T, s store.MessageStore) {
	// Put out of order, with ties on CreatedAt broken by ID.
	put(t, s, msg("c1", "m3", 2), msg("c1", "b", 1), msg("c1", "a", 1), msg("c1", "m0", 0), msg("c1", "z", -60))
	if got := list(t, s, "c1", store.Filter{}); got != "z,m0,a,b,m3" {
		t.Errorf("List = %s, want z,m0,a,b,m3 (CreatedAt, then ID)", got)
	}
	if got := list(t, s, "other", store.Filter{}); got != "" {
		t.Errorf("List of an empty conversation = %s", got)
	}
}

func testListFilter(t *testing.T, s store.MessageStore) {
	types := []store.Type{store.TypeUser, store.TypeAssistant, store.TypeTool}
	for i := 0; i < 9; i++ {
		m := msg("c1", fmt.Sprintf("m%d", i), i)
		m.Type = types[i%3]
		m.Removed = i == 4 || i == 8
		put(t, s, m)
	}
	put(t, s, msg("c2", "other", 0))
	before := func(minute int) *time.Time { t := epoch.Add(time.Duration(minute) * time.Minute); return &t }
	tests := []struct {
		name string
		f    store.Filter
		want string
	}{
		{"removed left out", store.Filter{}, "m0,m1,m2,m3,m5,m6,m7"},
		{"include removed", store.Filter{IncludeRemoved: true}, "m0,m1,m2,m3,m4,m5,m6,m7,m8"},
		{"types", store.Filter{Types: []store.Type{store.TypeTool, store.TypeUser}}, "m0,m2,m3,m5,m6"},
		{"older than is strict", store.Filter{OlderThan: before(3)}, "m0,m1,m2"},
		{"older than everything", store.Filter{OlderThan: before(-1)}, ""},
		{"limit keeps the newest", store.Filter{Limit: 3}, "m5,m6,m7"},
		{"limit larger than matches", store.Filter{Limit: 100}, "m0,m1,m2,m3,m5,m6,m7"},
		{"all together", store.Filter{Types: []store.Type{store.TypeAssistant, store.TypeTool}, OlderThan: before(8), Limit: 2, IncludeRemoved: true}, "m5,m7"},
	}
	for _, tt := range tests {
		if got := list(t, s, "c1", tt.f); got != tt.want {
			t.Errorf("%s: List = %s, want %s", tt.name, got, tt.want)
		}
	}
}

func testUpdateSummary(t *testing.T, s store.MessageStore) {
	m := msg("c1", "m1", 0)
	m.Tags, m.Embedding, m.ToolName = []string{"large-output", "tool_result"}, []float32{0.5}, "grep"
	put(t, s, m)
	if err := s.UpdateSummary("m1", "asked about the weather"); err != nil {
		t.Fatal(err)
	}
	want := *m
	want.Summary = "asked about the weather"
	if d := diff(get1(t, s, "c1", "m1"), &want); d != "" {
		t.Errorf("UpdateSummary changed more than the summary (-want +got):\n%s", d)
	}
	if err := s.UpdateSummary("nope", "x"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("UpdateSummary(unknown) = %v, want ErrNotFound", err)
	}
}

func testMarkRemoved(t *testing.T, s store.MessageStore) {
	m := msg("c1", "m1", 0)
	m.Summary = "kept"
	put(t, s, m, msg("c1", "m2", 1))
	at := time.Date(2025, 6, 3, 9, 0, 0, 5, time.FixedZone("X", -5*3600))
	if err := s.MarkRemoved("m1", true, &at); err != nil {
		t.Fatal(err)
	}
	got := get1(t, s, "c1", "m1")
	if !got.Removed || got.RemovedAt == nil || !got.RemovedAt.Equal(at) || got.Summary != "kept" {
		t.Errorf("after MarkRemoved: removed %v at %v summary %q", got.Removed, got.RemovedAt, got.Summary)
	}
	if l := list(t, s, "c1", store.Filter{}); l != "m2" {
		t.Errorf("List = %s, want m2", l)
	}
	if err := s.MarkRemoved("m1", false, &at); err != nil {
		t.Fatal(err)
	}
	if got := get1(t, s, "c1", "m1"); got.Removed || got.RemovedAt != nil || got.Summary != "kept" {
		t.Errorf("after unmarking: removed %v at %v summary %q", got.Removed, got.RemovedAt, got.Summary)
	}
	lo := time.Now().Add(-time.Second)
	if err := s.MarkRemoved("m2", true, nil); err != nil {
		t.Fatal(err)
	}
	hi := time.Now().Add(time.Second)
	if got := get1(t, s, "c1", "m2"); got.RemovedAt == nil || got.RemovedAt.Before(lo) || got.RemovedAt.After(hi) {
		t.Errorf("MarkRemoved(nil time) stamped %v, want about now", got.RemovedAt)
	}
	if err := s.MarkRemoved("nope", true, nil); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("MarkRemoved(unknown) = %v, want ErrNotFound", err)
	}
}

func testUpdateEmbedding(t *testing.T, s store.MessageStore) {
	put(t, s, msg("c1", "m1", 0))
	nan := math.Float32frombits(0x7fc00001) // a NaN with a payload
	vec := []float32{0.1, -0.2, nan, float32(math.Copysign(0, -1))}
	if err := s.UpdateEmbedding("m1", vec); err != nil {
		t.Fatal(err)
	}
	want := msg("c1", "m1", 0)
	want.Embedding = vec
	if d := diff(get1(t, s, "c1", "m1"), want); d != "" {
		t.Errorf("after UpdateEmbedding: %s", d)
	}
	if err := s.UpdateEmbedding("m1", nil); err != nil {
		t.Fatal(err)
	}
	if got := get1(t, s, "c1", "m1"); got.Embedding != nil {
		t.Errorf("after clearing: %v", got.Embedding)
	}
	if err := s.UpdateEmbedding("nope", vec); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("UpdateEmbedding(unknown) = %v, want ErrNotFound", err)
	}
}

func testListCandidates(t *testing.T, s store.MessageStore) {
	long := msg("c1", "long", 0)
	long.Content = "Größe:\n\n  " + strings.Repeat("wörd ", 60) // 10 + 300 runes
	long.Summary = "a long one"
	short := msg("c1", "short", 1)
	short.Content = "ok"
	gone := msg("c1", "gone", 2)
	gone.Removed = true
	put(t, s, long, short, gone)

	cs, err := s.ListCandidates("c1", store.CandidateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 || cs[0].Message == nil || cs[0].Message.ID != "long" || cs[1].Message.ID != "short" {
		t.Fatalf("candidates %+v", cs)
	}
	c := cs[0]
	if c.Bytes != len(long.Content) || c.Runes != 310 || c.Tokens != 78 {
		t.Errorf("sizes bytes %d runes %d tokens %d, want %d 310 78", c.Bytes, c.Runes, c.Tokens, len(long.Content))
	}
	wantPreview := "Größe: " + strings.Repeat("wörd ", 22) + "wör" // 120 characters
	if c.Preview.Text != wantPreview || !c.Preview.Truncated {
		t.Errorf("preview %q (truncated %v), want %q", c.Preview.Text, c.Preview.Truncated, wantPreview)
	}
	if c.Message.Summary != "a long one" {
		t.Errorf("candidate message %+v", c.Message)
	}
	if p := cs[1].Preview; p.Text != "ok" || p.Truncated {
		t.Errorf("short preview %+v", p)
	}
	cs, err = s.ListCandidates("c1", store.CandidateOptions{Filter: store.Filter{IncludeRemoved: true, Limit: 2}, PreviewRunes: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 || cs[0].Message.ID != "short" || cs[1].Message.ID != "gone" || cs[1].Preview.Text != "con" {
		t.Errorf("filtered candidates %+v", cs)
	}
	// The filter is List's: types and the time bound select as there.
	tool := msg("c1", "tool", 3)
	tool.Type, tool.ToolName = store.TypeTool, "grep"
	put(t, s, tool)
	for _, tt := range []struct {
		name string
		f    store.Filter
		want string
	}{
		{"types", store.Filter{Types: []store.Type{store.TypeTool}}, "tool"},
		{"older than", store.Filter{OlderThan: timeAt(1)}, "long"},
		{"types and older than", store.Filter{Types: []store.Type{store.TypeUser}, OlderThan: timeAt(3), IncludeRemoved: true}, "long,short,gone"},
	} {
		cs, err := s.ListCandidates("c1", store.CandidateOptions{Filter: tt.f})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, c := range cs {
			ids = append(ids, c.Message.ID)
		}
		if got := strings.Join(ids, ","); got != tt.want {
			t.Errorf("ListCandidates with %s = %s, want %s (as List selects)", tt.name, got, tt.want)
		}
	}
}

// timeAt is minute minutes after epoch, as a filter bound.
func timeAt(minute int) *time.Time {
	t := epoch.Add(time.Duration(minute) * time.Minute)
	return &t
}

func testConcurrentWriters(t *testing.T, s store.MessageStore) {
	const writers, each = 8, 40
	var wg sync.WaitGroup
	errs := make(chan error, writers*each*3)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				id := fmt.Sprintf("w%d-%03d", w, i)
				if err := s.Put(msg("c1", id, i)); err != nil {
					errs <- err
					continue
				}
				if err := s.UpdateSummary(id, "s-"+id); err != nil {
					errs <- err
				}
				if _, err := s.List("c1", store.Filter{Limit: 5}); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	ms, err := s.List("c1", store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != writers*each {
		t.Fatalf("%d messages after concurrent writes, want %d", len(ms), writers*each)
	}
	for _, m := range ms {
		if m.Summary != "s-"+m.ID {
			t.Fatalf("message %s has summary %q", m.ID, m.Summary)
		}
	}
}

// TestPayloadStore runs the MessageStore contract and then the payload
// rules on stores that implement store.PayloadStore.
func TestPayloadStore(t *testing.T, newStore func(t *testing.T) store.PayloadStore) {
	t.Helper()
	TestMessageStore(t, func(t *testing.T) store.MessageStore { return newStore(t) })
	t.Run("Payloads", func(t *testing.T) {
		s := newStore(t)
		put(t, s, msg("c1", "m1", 0), msg("c1", "m2", 1))
		raw := []byte("{\"signature\":\"EqQB<&>\\u00e9\"}\x00\xff")
		if err := s.PutPayload("m1", raw); err != nil {
			t.Fatal(err)
		}
		got, err := s.Payload("m1")
		if err != nil || !bytes.Equal(got, raw) {
			t.Fatalf("Payload = %q, %v; want the bytes put, exactly", got, err)
		}
		got[0] = 'X'
		if again, _ := s.Payload("m1"); !bytes.Equal(again, raw) {
			t.Fatal("the store shares memory with a payload it returned")
		}
		if p, err := s.Payload("m2"); err != nil || p != nil {
			t.Errorf("a message without a payload: %q, %v", p, err)
		}
		if err := s.PutPayload("nope", raw); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("PutPayload(unknown) = %v, want ErrNotFound", err)
		}
		if _, err := s.Payload("nope"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("Payload(unknown) = %v, want ErrNotFound", err)
		}
		if err := s.UpdateSummary("m1", "s"); err != nil {
			t.Fatal(err)
		}
		if err := s.MarkRemoved("m1", true, nil); err != nil {
			t.Fatal(err)
		}
		if again, _ := s.Payload("m1"); !bytes.Equal(again, raw) {
			t.Error("updating the summary or removing the message lost its payload")
		}
	})
}
