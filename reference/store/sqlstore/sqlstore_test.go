package sqlstore

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmtck/llmtck/reference/store"
	"github.com/llmtck/llmtck/reference/store/storetest"
)

func open(t testing.TB, path string) *Store {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestContractFile(t *testing.T) {
	storetest.TestMessageStore(t, func(t *testing.T) store.MessageStore {
		return open(t, filepath.Join(t.TempDir(), "messages.db"))
	})
}

func TestContractMemory(t *testing.T) {
	storetest.TestPayloadStore(t, func(t *testing.T) store.PayloadStore { return open(t, ":memory:") })
}

var day = time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)

func message(conv, id string, i int) *store.Message {
	return &store.Message{ID: id, ConversationID: conv, Type: store.TypeAssistant,
		CreatedAt: day.Add(time.Duration(i) * time.Second), Content: fmt.Sprintf("message %d of %s", i, conv)}
}

func TestKeepsDataAcrossReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	m := message("c1", "m1", 0)
	m.Tags, m.Embedding = []string{"x"}, []float32{1.5}
	if err := s.Put(m); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkRemoved("m1", true, &day); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, path)
	ms, err := s.Get("c1", "m1")
	if err != nil || len(ms) != 1 {
		t.Fatalf("after reopen: %v %v", ms, err)
	}
	if got := ms[0]; got.Tags[0] != "x" || got.Embedding[0] != 1.5 || !got.Removed || !got.RemovedAt.Equal(day) {
		t.Errorf("after reopen: %+v", got)
	}
}

// Two handles on one file stand for two processes: writes from both land,
// none fails with "database is locked".
func TestConcurrentWritersOnOneFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	a, b := open(t, path), open(t, path)
	var wg sync.WaitGroup
	errs := make(chan error, 1000)
	for w, s := range []*Store{a, b, a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				id := fmt.Sprintf("w%d-%d", w, i)
				if err := s.Put(message("c1", id, i)); err != nil {
					errs <- err
				}
				if err := s.UpdateEmbedding(id, []float32{float32(i)}); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	ms, err := b.List("c1", store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 400 {
		t.Fatalf("%d messages, want 400", len(ms))
	}
}

// A database made by the first schema version is migrated in place, its
// rows kept.
func TestMigratesAnOldDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE schema_version (version INTEGER NOT NULL)`,
		`INSERT INTO schema_version VALUES (1)`,
		migrations[0],
		fmt.Sprintf(`INSERT INTO messages (id, conversation_id, type, created_at, content, tags)
			VALUES ('old', 'c1', 'user', %d, 'from v1', '["legacy"]')`, day.UnixNano()),
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	s := open(t, path)
	ms, err := s.Get("c1", "old")
	if err != nil || len(ms) != 1 || ms[0].Content != "from v1" || ms[0].Tags[0] != "legacy" {
		t.Fatalf("old row after migration: %+v %v", ms, err)
	}
	if err := s.UpdateEmbedding("old", []float32{2}); err != nil {
		t.Fatalf("column added by a later step: %v", err)
	}
	var v int
	if err := s.db.QueryRow(`SELECT version FROM schema_version`).Scan(&v); err != nil || v != SchemaVersion {
		t.Errorf("schema version %d (%v), want %d", v, err, SchemaVersion)
	}
	// Reopening an up-to-date database changes nothing.
	s.Close()
	s = open(t, path)
	if ms, _ := s.Get("c1", "old"); len(ms) != 1 || ms[0].Embedding[0] != 2 {
		t.Errorf("after second open: %+v", ms)
	}
}

func TestOpenErrors(t *testing.T) {
	newer := filepath.Join(t.TempDir(), "newer.db")
	db, err := sql.Open("sqlite", newer)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (99)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	notDB := filepath.Join(t.TempDir(), "text.db")
	if err := writeFile(notDB, "this is not a database, just some text long enough to have a header"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, want string
	}{
		{newer, "schema version 99, newer than this llmtck knows (4)"},
		{"", "empty path"},
		{"a?b.db", "'?' would start the connection options"},
		{notDB, notDB},
		{filepath.Join(t.TempDir(), "missing", "dir", "m.db"), "m.db"},
	}
	for _, tt := range tests {
		s, err := Open(tt.path)
		if err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", tt.path)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Open(%q) = %v, want …%s…", tt.path, err, tt.want)
		}
	}
}

func TestCorruptColumnsAreErrorsNotPanics(t *testing.T) {
	s := open(t, ":memory:")
	if err := s.Put(message("c1", "m1", 0)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec(`UPDATE messages SET tags = 'not json', embedding = x'0102'`); err != nil {
		t.Fatal(err)
	}
	_, err := s.List("c1", store.Filter{})
	if err == nil || !strings.Contains(err.Error(), "message m1: tags column") {
		t.Errorf("List over a corrupt row: %v", err)
	}
	if _, err := s.db.Exec(`UPDATE messages SET tags = '[]'`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get("c1", "m1"); err == nil || !strings.Contains(err.Error(), "2 bytes, not a whole number of float32s") {
		t.Errorf("Get over a corrupt embedding: %v", err)
	}
	if errors.Is(err, store.ErrNotFound) {
		t.Error("corruption reported as not found")
	}
}

// BenchmarkPut10k puts 10,000 messages, one Put each, into a database file.
func BenchmarkPut10k(b *testing.B) {
	ms := make([]*store.Message, 10_000)
	for i := range ms {
		ms[i] = message("c1", fmt.Sprintf("m%05d", i), i)
		ms[i].Content = strings.Repeat("some words of content ", 20)
		ms[i].Tags = []string{"bench"}
	}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		s := open(b, filepath.Join(b.TempDir(), "bench.db"))
		b.StartTimer()
		for _, m := range ms {
			if err := s.Put(m); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkPutAll10k puts the same 10,000 messages in one transaction.
func BenchmarkPutAll10k(b *testing.B) {
	ms := make([]*store.Message, 10_000)
	for i := range ms {
		ms[i] = message("c1", fmt.Sprintf("m%05d", i), i)
		ms[i].Content = strings.Repeat("some words of content ", 20)
	}
	for b.Loop() {
		b.StopTimer()
		s := open(b, filepath.Join(b.TempDir(), "bench.db"))
		b.StartTimer()
		if err := s.PutAll(ms); err != nil {
			b.Fatal(err)
		}
	}
}

func TestPutAllIsAllOrNothing(t *testing.T) {
	s := open(t, ":memory:")
	good, bad := message("c1", "m1", 0), message("c1", "", 1)
	if err := s.PutAll([]*store.Message{good, bad}); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("PutAll with an invalid message: %v", err)
	}
	if ms, _ := s.List("c1", store.Filter{}); len(ms) != 0 {
		t.Fatalf("stored %d of a failed batch", len(ms))
	}
	if err := s.PutAll([]*store.Message{good, message("c1", "m2", 1)}); err != nil {
		t.Fatal(err)
	}
	if ms, _ := s.List("c1", store.Filter{}); len(ms) != 2 {
		t.Fatalf("stored %d, want 2", len(ms))
	}
}

// BenchmarkListCandidates1k lists 1,000 candidates out of 10,000 messages.
func BenchmarkListCandidates1k(b *testing.B) {
	s := open(b, filepath.Join(b.TempDir(), "bench.db"))
	for i := 0; i < 10_000; i++ {
		m := message(fmt.Sprintf("c%d", i%2), fmt.Sprintf("m%05d", i), i)
		m.Content = strings.Repeat("some words of content ", 20)
		if err := s.Put(m); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		cs, err := s.ListCandidates("c0", store.CandidateOptions{Filter: store.Filter{Limit: 1000}})
		if err != nil || len(cs) != 1000 {
			b.Fatal(len(cs), err)
		}
	}
}

func writeFile(path, s string) error { return os.WriteFile(path, []byte(s), 0o644) }
