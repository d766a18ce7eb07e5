package scenario

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"hash"
	"strconv"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// A minted token is base64 of: a tag over the block's own content, a tag
// over the history before the block, and, for hidden content (redacted
// data, encrypted reasoning), the nonce the block stands for. Verifying both tags tells an altered or foreign token
// (the first fails) from a genuine block moved or with its history edited
// (only the second fails), as the real API tells them apart.
const tagSize = 16

// Minter mints and verifies a simulator's opaque tokens under one key.
type Minter struct{ key []byte }

// NewMinter returns a minter signing with key.
func NewMinter(key []byte) *Minter { return &Minter{key: key} }

// Nonce is a fixed pseudo-random value for label under the minter's key:
// what a redacted block or an encrypted item stands for, the same on every
// run.
func (m *Minter) Nonce(label string) []byte {
	h := hmac.New(sha256.New, m.key)
	h.Write([]byte(label))
	return h.Sum(nil)[:tagSize]
}

// mint returns a token for payload in a block placed after req's first
// upto messages and, in its own message, the blocks before it. A token
// standing for hidden content (redacted thinking, encrypted reasoning)
// carries that content as nonce, and its payload is the nonce itself.
func (m *Minter) mint(req *traffic.Request, upto int, before []traffic.Block, payload, nonce []byte) string {
	if nonce != nil {
		payload = nonce
	}
	return base64.StdEncoding.EncodeToString(append(m.tags(req, upto, before, payload), nonce...))
}

func (m *Minter) tags(req *traffic.Request, upto int, before []traffic.Block, payload []byte) []byte {
	own := hmac.New(sha256.New, m.key)
	writeField(own, payload)
	bound := hmac.New(sha256.New, m.key)
	writeHistory(bound, req, upto, before)
	writeField(bound, payload)
	return append(own.Sum(nil)[:tagSize], bound.Sum(nil)[:tagSize]...)
}

// verdict is what verification found about one echoed token.
type verdict int

const (
	genuine verdict = iota
	forged          // not a token this minter produced for this content
	rebound         // a genuine token whose history changed or that moved
)

// check verifies raw, the JSON token echoed in the block at
// req.Messages[i].Blocks[j], minted for payload (nil when the token carries
// its own content, as mint's nonce).
func (m *Minter) check(raw []byte, req *traffic.Request, i, j int, payload []byte) verdict {
	s, ok := rawjson.String(raw)
	if !ok {
		return forged
	}
	tok, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(tok) < 2*tagSize {
		return forged
	}
	if payload == nil {
		payload = tok[2*tagSize:]
	} else if len(tok) != 2*tagSize {
		return forged
	}
	want := m.tags(req, i, req.Messages[i].Blocks[:j], payload)
	switch {
	case !hmac.Equal(tok[:tagSize], want[:tagSize]):
		return forged
	case !hmac.Equal(tok[tagSize:2*tagSize], want[tagSize:]):
		return rebound
	}
	return genuine
}

// writeHistory writes what a signature binds a block to: the system
// prompt, the tools, the first upto messages and the blocks before it in
// its own message. Only what the model reads counts: cache_control,
// citations and other extras do not, nor does how the JSON was spelled.
func writeHistory(h hash.Hash, req *traffic.Request, upto int, before []traffic.Block) {
	writeField(h, []byte("system"))
	writeBlocks(h, req.System)
	writeField(h, []byte("tools"))
	for _, t := range req.Tools {
		writeField(h, []byte(t.Name))
		writeField(h, []byte(t.Description))
		writeField(h, rawjson.Compact(t.Schema))
	}
	for _, msg := range req.Messages[:upto] {
		writeField(h, []byte(msg.Role))
		writeBlocks(h, msg.Blocks)
	}
	writeField(h, []byte(traffic.RoleAssistant))
	writeBlocks(h, before)
}

func writeBlocks(h hash.Hash, blocks []traffic.Block) {
	writeField(h, []byte(strconv.Itoa(len(blocks))))
	for _, b := range blocks {
		writeField(h, []byte(b.Type))
		writeField(h, []byte(b.Text))
		writeField(h, token(b.Signature))
		writeField(h, token(b.Data))
		writeField(h, token(b.EncryptedContent))
		writeField(h, []byte(strconv.FormatBool(b.Thought)))
		writeField(h, []byte(b.ID))
		writeField(h, []byte(b.ItemID))
		writeField(h, []byte(b.Name))
		writeField(h, rawjson.Compact(b.Input))
		writeField(h, []byte(b.ToolCallID))
		writeField(h, []byte(strconv.FormatBool(b.IsError)))
		writeField(h, rawjson.Compact(b.Source))
		writeField(h, rawjson.Compact(b.ResultRaw))
		writeBlocks(h, b.Content)
	}
}

// writeField writes one length-prefixed field, so fields cannot run into
// each other.
func writeField(h hash.Hash, p []byte) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(p)))
	h.Write(n[:])
	h.Write(p)
}

// token is an opaque payload's value: a string unquoted, so a re-escaped
// but equal token binds the same, anything else as compact JSON.
func token(raw []byte) []byte {
	if s, ok := rawjson.String(raw); ok {
		return []byte(s)
	}
	return rawjson.Compact(raw)
}
