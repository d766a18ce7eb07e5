// Package sqlstore is a MessageStore on embedded SQLite (pure Go, no cgo):
// a file that keeps its data across reopen and is safe for concurrent
// writers, or ":memory:".
package sqlstore

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/reference/store"
)

// Store is a MessageStore backed by SQLite.
type Store struct {
	db  *sql.DB
	put *sql.Stmt // prepared once: Put is the hot write
	now func() time.Time
}

var _ store.PayloadStore = (*Store)(nil)

// Open opens (creating if needed) the database at path, or a private
// in-memory database for ":memory:", and migrates its schema. Concurrent
// writers — goroutines or other processes on the same file — wait for each
// other (WAL journal, 10 s busy timeout) instead of failing.
func Open(path string) (*Store, error) {
	if path == "" {
		return nil, errors.New("sqlstore: empty path")
	}
	if strings.ContainsRune(path, '?') {
		return nil, fmt.Errorf("sqlstore: path %q: '?' would start the connection options", path)
	}
	memory := path == ":memory:"
	dsn := path + "?_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_txlock=immediate"
	if !memory {
		dsn += "&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)"
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: open %s: %w", path, err)
	}
	if memory {
		// Every connection to ":memory:" is its own database: keep one.
		db.SetMaxOpenConns(1)
	}
	if err := migrate(context.Background(), db); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlstore: %s: %w", path, err)
	}
	put, err := db.Prepare(`INSERT OR REPLACE INTO messages (` + columns + `)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlstore: %s: %w", path, err)
	}
	return &Store{db: db, put: put, now: time.Now}, nil
}

// Close closes the database.
func (s *Store) Close() error {
	s.put.Close()
	return s.db.Close()
}

const columns = `id, conversation_id, parent_message_id, type, role, tool_name, created_at,
	content, summary, removed, removed_at, tags, embedding`

// Put inserts msg or replaces the message with its ID.
func (s *Store) Put(msg *store.Message) error {
	return s.putWith(s.put, msg)
}

// PutAll puts every message in one transaction: all or none are stored. It
// is Put for a whole history, without a commit per message.
func (s *Store) PutAll(msgs []*store.Message) error {
	for _, m := range msgs {
		if err := store.Check(m); err != nil {
			return err
		}
	}
	tx, err := s.db.Begin()
	if err != nil {
		return fmt.Errorf("sqlstore: put all: %w", err)
	}
	defer tx.Rollback()
	stmt := tx.Stmt(s.put)
	for _, m := range msgs {
		if err := s.putWith(stmt, m); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlstore: put all: %w", err)
	}
	return nil
}

func (s *Store) putWith(stmt *sql.Stmt, msg *store.Message) error {
	if err := store.Check(msg); err != nil {
		return err
	}
	tags, err := rawjson.Marshal(nonNil(msg.Tags))
	if err != nil {
		return fmt.Errorf("sqlstore: put %s: tags: %w", msg.ID, err)
	}
	var removedAt any
	if msg.RemovedAt != nil {
		removedAt = msg.RemovedAt.UnixNano()
	}
	_, err = stmt.Exec(msg.ID, msg.ConversationID, msg.ParentMessageID, string(msg.Type), msg.Role, msg.ToolName,
		msg.CreatedAt.UnixNano(), msg.Content, msg.Summary, msg.Removed, removedAt, string(tags),
		encodeEmbedding(msg.Embedding))
	if err != nil {
		return fmt.Errorf("sqlstore: put %s: %w", msg.ID, err)
	}
	return nil
}

// Get returns the conversation's messages with the given ids, in the order
// of ids, leaving out unknown ones.
func (s *Store) Get(conversationID string, ids ...string) ([]*store.Message, error) {
	out := []*store.Message{}
	if len(ids) == 0 {
		return out, nil
	}
	args := []any{conversationID}
	for _, id := range ids {
		args = append(args, id)
	}
	rows, err := s.db.Query(`SELECT `+columns+` FROM messages WHERE conversation_id = ? AND id IN (`+
		placeholders(len(ids))+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: get: %w", err)
	}
	found, err := scanAll(rows)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: get: %w", err)
	}
	byID := make(map[string]*store.Message, len(found))
	for _, m := range found {
		byID[m.ID] = m
	}
	for _, id := range ids {
		if m, ok := byID[id]; ok {
			out = append(out, store.Clone(m)) // a repeated id gets its own copy
		}
	}
	return out, nil
}

// List returns the matching messages, oldest first; a Limit keeps the newest.
func (s *Store) List(conversationID string, f store.Filter) ([]*store.Message, error) {
	var where strings.Builder
	args := []any{conversationID}
	where.WriteString(`conversation_id = ?`)
	if !f.IncludeRemoved {
		where.WriteString(` AND removed = 0`)
	}
	if f.OlderThan != nil {
		switch t := *f.OlderThan; {
		case !t.After(store.MinTime):
			return []*store.Message{}, nil // nothing can be older
		case t.After(store.MaxTime):
			// everything is older
		default:
			where.WriteString(` AND created_at < ?`)
			args = append(args, t.UnixNano())
		}
	}
	if len(f.Types) > 0 {
		where.WriteString(` AND type IN (` + placeholders(len(f.Types)) + `)`)
		for _, t := range f.Types {
			args = append(args, string(t))
		}
	}
	q := `SELECT ` + columns + ` FROM messages WHERE ` + where.String() + ` ORDER BY created_at, id`
	if f.Limit > 0 {
		// The newest Limit, then back to oldest first.
		q = `SELECT * FROM (SELECT ` + columns + ` FROM messages WHERE ` + where.String() +
			` ORDER BY created_at DESC, id DESC LIMIT ?) ORDER BY created_at, id`
		args = append(args, f.Limit)
	}
	rows, err := s.db.Query(q, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: list: %w", err)
	}
	ms, err := scanAll(rows)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: list: %w", err)
	}
	return ms, nil
}

func (s *Store) update(id, set string, args ...any) error {
	res, err := s.db.Exec(`UPDATE messages SET `+set+` WHERE id = ?`, append(args, id)...)
	if err != nil {
		return fmt.Errorf("sqlstore: update %s: %w", id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("sqlstore: update %s: %w", id, err)
	}
	if n == 0 {
		return fmt.Errorf("%w: %s", store.ErrNotFound, id)
	}
	return nil
}

// PutPayload sets the payload of a stored message.
func (s *Store) PutPayload(id string, payload []byte) error {
	res, err := s.db.Exec(`INSERT OR REPLACE INTO payloads (message_id, data) SELECT id, ? FROM messages WHERE id = ?`, payload, id)
	if err != nil {
		return fmt.Errorf("sqlstore: payload of %s: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("%w: %s", store.ErrNotFound, id)
	}
	return nil
}

// Payload returns a message's payload, nil when it has none.
func (s *Store) Payload(id string) ([]byte, error) {
	var data []byte
	var found int
	err := s.db.QueryRow(`SELECT COUNT(*), (SELECT data FROM payloads WHERE message_id = ?) FROM messages WHERE id = ?`, id, id).Scan(&found, &data)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: payload of %s: %w", id, err)
	}
	if found == 0 {
		return nil, fmt.Errorf("%w: %s", store.ErrNotFound, id)
	}
	return data, nil
}

// UpdateSummary sets the message's summary.
func (s *Store) UpdateSummary(id, summary string) error {
	return s.update(id, `summary = ?`, summary)
}

// MarkRemoved flags or unflags the message; the summary stays.
func (s *Store) MarkRemoved(id string, removed bool, removedAt *time.Time) error {
	var at any
	if removed {
		t := s.now()
		if removedAt != nil {
			t = *removedAt
		}
		if err := store.CheckTime(t); err != nil {
			return fmt.Errorf("%w: message %s: RemovedAt %v", store.ErrInvalid, id, err)
		}
		at = t.UnixNano()
	}
	return s.update(id, `removed = ?, removed_at = ?`, removed, at)
}

// UpdateEmbedding sets the message's embedding; nil clears it.
func (s *Store) UpdateEmbedding(id string, embedding []float32) error {
	return s.update(id, `embedding = ?`, encodeEmbedding(embedding))
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

func scanAll(rows *sql.Rows) ([]*store.Message, error) {
	defer rows.Close()
	out := []*store.Message{}
	for rows.Next() {
		var (
			m         store.Message
			typ       string
			created   int64
			removedAt sql.NullInt64
			tags      string
			embedding []byte
		)
		if err := rows.Scan(&m.ID, &m.ConversationID, &m.ParentMessageID, &typ, &m.Role, &m.ToolName,
			&created, &m.Content, &m.Summary, &m.Removed, &removedAt, &tags, &embedding); err != nil {
			return nil, err
		}
		m.Type = store.Type(typ)
		m.CreatedAt = time.Unix(0, created).UTC()
		if removedAt.Valid {
			t := time.Unix(0, removedAt.Int64).UTC()
			m.RemovedAt = &t
		}
		if err := json.Unmarshal([]byte(tags), &m.Tags); err != nil {
			return nil, fmt.Errorf("message %s: tags column %q: %w", m.ID, tags, err)
		}
		if len(m.Tags) == 0 {
			m.Tags = nil
		}
		var err error
		if m.Embedding, err = decodeEmbedding(embedding); err != nil {
			return nil, fmt.Errorf("message %s: %w", m.ID, err)
		}
		out = append(out, &m)
	}
	return out, rows.Err()
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// encodeEmbedding stores each float32's bits, little-endian, so NaN
// payloads and negative zero come back exactly.
func encodeEmbedding(e []float32) any {
	if len(e) == 0 {
		return nil
	}
	b := make([]byte, 4*len(e))
	for i, f := range e {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

func decodeEmbedding(b []byte) ([]float32, error) {
	if len(b) == 0 {
		return nil, nil
	}
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("embedding column holds %d bytes, not a whole number of float32s", len(b))
	}
	e := make([]float32, len(b)/4)
	for i := range e {
		e[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return e, nil
}
