package conformance

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/maphash"
	"slices"
	"strings"

	"github.com/llmtck/llmtck/engine"
	"github.com/llmtck/llmtck/internal/rawjson"
)

// Fingerprints let threading and the HIST checks compare histories in linear
// time. A history is cut into units: one per message (its role and message
// level fields) followed by one per content block. A unit's fingerprint is a
// hash of its canonical content:
//   - without Path (the same block sits at another index in the next request);
//   - without cache_control (harnesses move the marker every turn, and the
//     provider ignores it when comparing prefixes);
//   - raw JSON values without insignificant whitespace (the same client may
//     re-serialise with other spacing, as openllmetry's cassettes show);
//   - content as a string or as a one-text list alike (ContentString);
//   - on Gemini, thoughtSignature in one base64 alphabet (clients re-encode
//     signatures URL-safe, see the corpus).
//
// Fingerprints are only compared within one process, so the hash is seeded
// per process.
var fpSeed = maphash.MakeSeed()

// ignoredExtra are wire fields that never make two units differ.
var ignoredExtra = map[string]bool{"cache_control": true}

// fingerprinter hashes units; its zero value is not ready, use newFingerprinter.
type fingerprinter struct {
	h      maphash.Hash
	gemini bool
}

func newFingerprinter(w engine.Wire) *fingerprinter {
	f := &fingerprinter{gemini: w == engine.WireGemini}
	f.h.SetSeed(fpSeed)
	return f
}

// startFP is the fingerprint of a message's own unit: role, item type, author
// name and message-level fields.
func (f *fingerprinter) startFP(m *engine.Message) uint64 {
	f.h.Reset()
	f.tag('M')
	f.str(string(m.Role))
	f.str(m.WireType)
	f.str(m.Name)
	f.extra(m.Extra)
	return f.h.Sum64()
}

// blockFP is the fingerprint of one content block.
func (f *fingerprinter) blockFP(b *engine.Block) uint64 {
	f.h.Reset()
	f.block(b)
	return f.h.Sum64()
}

func (f *fingerprinter) block(b *engine.Block) {
	f.tag('B')
	f.str(string(b.Type))
	if b.Type != engine.BlockText {
		// text, input_text and output_text are the same content.
		f.str(b.WireType)
	}
	f.str(b.Text)
	if b.Thought {
		f.tag('t')
	}
	f.signature(b.Signature)
	f.raw(b.Data)
	f.raw(b.EncryptedContent)
	f.str(b.MediaType)
	f.raw(b.Source)
	f.str(b.ID)
	f.str(b.ItemID)
	f.str(b.Name)
	f.raw(b.Input)
	f.str(b.ToolCallID)
	if b.IsError {
		f.tag('e')
	}
	f.raw(b.ResultRaw)
	f.extra(b.Extra)
	f.raw(b.Raw)
	for i := range b.Content {
		f.block(&b.Content[i])
	}
	f.tag('b')
}

func (f *fingerprinter) tag(c byte) { f.h.WriteByte(c) }

func (f *fingerprinter) str(s string) {
	var n [binary.MaxVarintLen64]byte
	f.h.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
	f.h.WriteString(s)
}

// raw writes a JSON token without the whitespace between its tokens.
func (f *fingerprinter) raw(v json.RawMessage) {
	f.tag('R')
	if !bytes.ContainsAny(v, " \t\n\r") {
		f.h.Write(v)
		f.tag('r')
		return
	}
	inString, escaped := false, false
	start := 0
	for i, c := range v {
		switch {
		case inString:
			if escaped {
				escaped = false
			} else if c == '\\' {
				escaped = true
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			f.h.Write(v[start:i])
			start = i + 1
		}
	}
	f.h.Write(v[start:])
	f.tag('r')
}

// signature writes an opaque signature token; Gemini's in one alphabet.
func (f *fingerprinter) signature(v json.RawMessage) {
	if !f.gemini || len(v) == 0 {
		f.raw(v)
		return
	}
	s, ok := rawjson.String(v)
	if !ok {
		f.raw(v)
		return
	}
	f.tag('S')
	f.str(geminiSigReplacer.Replace(strings.TrimRight(s, "=")))
}

var geminiSigReplacer = strings.NewReplacer("-", "+", "_", "/")

func (f *fingerprinter) extra(m map[string]json.RawMessage) {
	if len(m) == 0 {
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		if !ignoredExtra[k] {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		f.str(k)
		f.raw(m[k])
	}
}

// mix folds fingerprint v into running hash h (prefix hashes, message
// fingerprints from unit fingerprints).
func mix(h, v uint64) uint64 {
	h ^= v + 0x9e3779b97f4a7c15 + (h << 6) + (h >> 2)
	h ^= h >> 31
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 29
	return h
}
