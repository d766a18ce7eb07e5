package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations are the schema steps, applied in order; migrations[i] takes
// the schema from version i to i+1. Append only: never edit a shipped step.
var migrations = []string{
	// 1: the messages table. Times are Unix nanoseconds (exact round trip),
	// tags a JSON array, the embedding little-endian float32s.
	`CREATE TABLE messages (
		id                TEXT PRIMARY KEY,
		conversation_id   TEXT NOT NULL,
		parent_message_id TEXT NOT NULL DEFAULT '',
		type              TEXT NOT NULL,
		role              TEXT NOT NULL DEFAULT '',
		tool_name         TEXT NOT NULL DEFAULT '',
		created_at        INTEGER NOT NULL,
		content           TEXT NOT NULL DEFAULT '',
		summary           TEXT NOT NULL DEFAULT '',
		removed           INTEGER NOT NULL DEFAULT 0,
		removed_at        INTEGER,
		tags              TEXT NOT NULL DEFAULT '[]'
	)`,
	// 2: listing a conversation in order is the hot query.
	`CREATE INDEX messages_by_conversation ON messages (conversation_id, created_at, id)`,
	// 3: embeddings, added after the first release.
	`ALTER TABLE messages ADD COLUMN embedding BLOB`,
	// 4: payloads (store.PayloadStore): the application's opaque bytes per
	// message, apart from the rows listings read.
	`CREATE TABLE payloads (
		message_id TEXT PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
		data       BLOB NOT NULL
	)`,
}

// SchemaVersion is the version Open migrates a database to.
var SchemaVersion = len(migrations)

// migrate brings the database to SchemaVersion inside one immediate
// transaction, so two processes opening the same file migrate it once.
func migrate(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
		return fmt.Errorf("migrate: version table: %w", err)
	}
	var version int
	err = tx.QueryRow(`SELECT version FROM schema_version`).Scan(&version)
	switch {
	case err == sql.ErrNoRows:
		if _, err := tx.Exec(`INSERT INTO schema_version (version) VALUES (0)`); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
	case err != nil:
		return fmt.Errorf("migrate: reading the schema version: %w", err)
	}
	if version > len(migrations) {
		return fmt.Errorf("migrate: the database has schema version %d, newer than this llmtck knows (%d)", version, len(migrations))
	}
	for v := version; v < len(migrations); v++ {
		if _, err := tx.Exec(migrations[v]); err != nil {
			return fmt.Errorf("migrate: step %d: %w", v+1, err)
		}
	}
	if _, err := tx.Exec(`UPDATE schema_version SET version = ?`, len(migrations)); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return tx.Commit()
}
