package thread

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

// fingerprinter hashes units: it lays a unit's canonical content out in
// buf and hashes that once.
type fingerprinter struct {
	buf    []byte
	gemini bool
}

func newFingerprinter(w engine.Wire) *fingerprinter {
	return &fingerprinter{gemini: w == engine.WireGemini}
}

func (f *fingerprinter) reset() { f.buf = f.buf[:0] }

func (f *fingerprinter) sum() uint64 { return maphash.Bytes(fpSeed, f.buf) }

// startFP is the fingerprint of a message's own unit: role, item type, author
// name and message-level fields.
func (f *fingerprinter) startFP(m *engine.Message) uint64 {
	f.reset()
	f.tag('M')
	f.str(string(m.Role))
	f.field('W', m.WireType)
	f.field('n', m.Name)
	f.extra(m.Extra)
	return f.sum()
}

// blockFP is the fingerprint of one content block.
func (f *fingerprinter) blockFP(b *engine.Block) uint64 {
	f.reset()
	f.Block(b)
	return f.sum()
}

func (f *fingerprinter) Block(b *engine.Block) {
	f.tag('B')
	f.field('T', string(b.Type))
	if b.Type != engine.BlockText {
		// text, input_text and output_text are the same content.
		f.field('W', b.WireType)
	}
	f.field('x', b.Text)
	if b.Thought {
		f.tag('t')
	}
	if len(b.Signature) > 0 {
		f.signature(b.Signature)
	}
	f.rawField('d', b.Data)
	f.rawField('c', b.EncryptedContent)
	f.field('m', b.MediaType)
	f.rawField('s', b.Source)
	f.field('i', b.ID)
	f.field('I', b.ItemID)
	f.field('n', b.Name)
	f.rawField('a', b.Input)
	f.field('o', b.ToolCallID)
	if b.IsError {
		f.tag('e')
	}
	f.rawField('r', b.ResultRaw)
	f.extra(b.Extra)
	f.rawField('w', b.Raw)
	for i := range b.Content {
		f.Block(&b.Content[i])
	}
	f.tag('b')
}

// field writes a tagged string when it is set.
func (f *fingerprinter) field(tag byte, s string) {
	if s != "" {
		f.tag(tag)
		f.str(s)
	}
}

// rawField writes a tagged raw JSON value when it is set.
func (f *fingerprinter) rawField(tag byte, v json.RawMessage) {
	if len(v) > 0 {
		f.tag(tag)
		f.raw(v)
	}
}

func (f *fingerprinter) tag(c byte) { f.buf = append(f.buf, c) }

func (f *fingerprinter) str(s string) {
	f.buf = binary.AppendUvarint(f.buf, uint64(len(s)))
	f.buf = append(f.buf, s...)
}

// raw writes a JSON token without the whitespace between its tokens.
func (f *fingerprinter) raw(v json.RawMessage) {
	f.tag('R')
	if len(v) > 0 && v[0] == '"' || !bytes.ContainsAny(v, " \t\n\r") {
		// A string token has no whitespace outside itself.
		f.buf = append(f.buf, v...)
		f.tag('r')
		return
	}
	f.buf = rawjson.AppendCompact(f.buf, v)
	f.tag('r')
}

// signature writes an opaque signature token; Gemini's in one alphabet.
func (f *fingerprinter) signature(v json.RawMessage) {
	f.tag('g')
	if !f.gemini {
		f.raw(v)
		return
	}
	s, ok := rawjson.String(v)
	if !ok {
		f.raw(v)
		return
	}
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
