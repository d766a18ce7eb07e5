package thread

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/maphash"
	"slices"
	"strings"

	"github.com/llmtck/llmtck/internal/rawjson"
	"github.com/llmtck/llmtck/traffic"
)

// Hasher is the one history hasher every check family uses: it fingerprints
// messages, blocks, system prompts and tool lists so histories compare in
// linear time. Two values hash alike when the provider reads them alike:
//   - without Path (the same block sits at another index in the next request);
//   - without cache_control, on a message, a block or at the top of a JSON
//     value (harnesses move the marker every turn, and the provider ignores
//     it when comparing prefixes);
//   - raw JSON values without insignificant whitespace (the same client may
//     re-serialise with other spacing, as openllmetry's cassettes show);
//   - opaque payloads (signature, redacted data, encrypted content) by their
//     decoded string value, and on Gemini thoughtSignature in one base64
//     alphabet (clients re-encode signatures URL-safe, see the corpus);
//   - content as a string or as a one-text list alike (ContentString).
//
// Fingerprints are only compared within one process, so the hash is seeded
// per process. A Hasher is not safe for concurrent use.
type Hasher struct {
	h        maphash.Hash // streamed: a long text is hashed, not copied
	scratch  []byte       // a compacted JSON value
	gemini   bool
	payloads bool
	known    *Prints // block fingerprints already worked out; nil keeps none
	bare     *Hasher // WithoutPayloads, for Learn; made on first use
}

var seed = maphash.MakeSeed()

// CacheControl is the key providers leave out of prefix comparisons.
const CacheControl = "cache_control"

// NewHasher returns a hasher for wire w's history.
func NewHasher(w traffic.Wire) *Hasher {
	f := &Hasher{gemini: w == traffic.WireGemini, payloads: true}
	f.h.SetSeed(seed)
	return f
}

// roleStarts are the Start fingerprints of messages that carry a role and
// nothing else, most messages of most histories, worked out once.
var roleStarts = func() []roleStart {
	var out []roleStart
	for _, r := range []traffic.Role{traffic.RoleUser, traffic.RoleAssistant, traffic.RoleSystem, traffic.RoleDeveloper, traffic.RoleTool} {
		out = append(out, roleStart{r, NewHasher(traffic.WireAnthropic).start(&traffic.Message{Role: r})})
	}
	return out
}()

type roleStart struct {
	role traffic.Role
	fp   uint64
}

// WithoutPayloads returns a hasher that leaves opaque payloads out, to
// recognise a history whatever its client did to the signatures in it.
func (f *Hasher) WithoutPayloads() *Hasher {
	g := &Hasher{gemini: f.gemini, payloads: false, known: f.known}
	g.h.SetSeed(seed)
	return g
}

func (f *Hasher) reset() { f.h.Reset() }

func (f *Hasher) sum() uint64 { return f.h.Sum64() }

// Start is the fingerprint of a message's own unit: role, item type, author
// name and message-level fields.
func (f *Hasher) Start(m *traffic.Message) uint64 {
	if m.WireType == "" && m.Name == "" && len(m.Extra) == 0 {
		for _, r := range roleStarts {
			if r.role == m.Role {
				return r.fp
			}
		}
	}
	return f.start(m)
}

func (f *Hasher) start(m *traffic.Message) uint64 {
	f.reset()
	f.tag('M')
	f.str(string(m.Role))
	f.field('W', m.WireType)
	f.field('n', m.Name)
	f.extra(m.Extra)
	return f.sum()
}

// Block is the fingerprint of one content block.
func (f *Hasher) Block(b *traffic.Block) uint64 {
	if f.known == nil {
		f.reset()
		f.block(b)
		return f.sum()
	}
	key := keyOf(b, f.gemini, f.payloads)
	if fp, ok := f.known.get(key); ok {
		return fp
	}
	f.reset()
	f.block(b)
	fp := f.sum()
	f.known.put(key, fp)
	return fp
}

// Learn is Block for a block that joins a linter's history: it also keeps,
// in the hasher's Prints, the block's fingerprint with every other setting
// the checks hash this wire's history with, so that judgements find them
// all.
func (f *Hasher) Learn(b *traffic.Block) uint64 {
	if f.gemini && f.payloads && f.known != nil {
		// The Gemini checks tie echoes to responses whatever the clients
		// did to the signatures (checks/gemini, gemIndex.h).
		if f.bare == nil {
			f.bare = f.WithoutPayloads()
		}
		f.bare.Block(b)
	}
	return f.Block(b)
}

// Message is the fingerprint of a whole message: its own unit and its
// blocks, in order.
func (f *Hasher) Message(m *traffic.Message) uint64 {
	h := f.Start(m)
	for i := range m.Blocks {
		h = Mix(h, f.Block(&m.Blocks[i]))
	}
	return h
}

// HasPayload reports whether m carries an opaque payload (a signature,
// redacted data, encrypted content) in any block, nested ones included.
// A message without one has the same fingerprint with payloads as
// without (WithoutPayloads): a caller that has the one has the other.
func HasPayload(m *traffic.Message) bool { return hasPayload(m.Blocks) }

func hasPayload(bs []traffic.Block) bool {
	for i := range bs {
		b := &bs[i]
		if len(b.Signature) > 0 || len(b.Data) > 0 || len(b.EncryptedContent) > 0 || hasPayload(b.Content) {
			return true
		}
	}
	return false
}

// Blocks is the fingerprint of a list of blocks (a system prompt).
func (f *Hasher) Blocks(bs []traffic.Block) uint64 {
	h := Mix(0, uint64(len(bs)))
	for i := range bs {
		h = Mix(h, f.Block(&bs[i]))
	}
	return h
}

// Tools is the fingerprint of a request's tool definitions.
func (f *Hasher) Tools(tools []traffic.Tool) uint64 {
	f.reset()
	f.tag('L')
	for _, t := range tools {
		f.raw(t.Raw)
	}
	return f.sum()
}

// String is the fingerprint of a plain string (a model name, a thinking
// configuration).
func (f *Hasher) String(s string) uint64 {
	f.reset()
	f.tag('S')
	f.str(s)
	return f.sum()
}

func (f *Hasher) block(b *traffic.Block) {
	f.tag('B')
	f.field('T', string(b.Type))
	if b.Type != traffic.BlockText {
		// text, input_text and output_text are the same content.
		f.field('W', b.WireType)
	}
	f.field('x', b.Text)
	if b.Thought {
		f.tag('t')
	}
	if f.payloads {
		f.payload('g', b.Signature, f.gemini)
		f.payload('d', b.Data, false)
		f.payload('c', b.EncryptedContent, false)
	}
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
		f.block(&b.Content[i])
	}
	f.tag('b')
}

// field writes a tagged string when it is set.
func (f *Hasher) field(tag byte, s string) {
	if s != "" {
		f.tag(tag)
		f.str(s)
	}
}

// rawField writes a tagged raw JSON value when it is set.
func (f *Hasher) rawField(tag byte, v json.RawMessage) {
	if len(v) > 0 {
		f.tag(tag)
		f.raw(v)
	}
}

func (f *Hasher) tag(c byte) { f.h.WriteByte(c) }

func (f *Hasher) str(s string) {
	f.length(len(s))
	f.h.WriteString(s)
}

func (f *Hasher) length(n int) {
	var buf [binary.MaxVarintLen64]byte
	f.h.Write(buf[:binary.PutUvarint(buf[:], uint64(n))])
}

// raw writes a JSON value without the whitespace between its tokens and
// without a top-level cache_control key.
func (f *Hasher) raw(v json.RawMessage) {
	f.tag('R')
	v = WithoutCacheControl(v)
	if len(v) > 0 && v[0] == '"' || !bytes.ContainsAny(v, " \t\n\r") {
		// A string token has no whitespace outside itself.
		f.h.Write(v)
		f.tag('r')
		return
	}
	f.scratch = rawjson.AppendCompact(f.scratch[:0], v)
	f.h.Write(f.scratch)
	f.tag('r')
}

// payload writes an opaque token by its decoded value; a Gemini signature
// in one alphabet.
func (f *Hasher) payload(tag byte, v json.RawMessage, oneAlphabet bool) {
	if len(v) == 0 {
		return
	}
	f.tag(tag)
	if oneAlphabet {
		s, ok := rawjson.String(v)
		if !ok {
			f.raw(v)
			return
		}
		f.str(geminiSigReplacer.Replace(strings.TrimRight(s, "=")))
		return
	}
	s, ok := rawjson.StringBytes(v)
	if !ok {
		f.raw(v)
		return
	}
	f.length(len(s))
	f.h.Write(s)
}

var geminiSigReplacer = strings.NewReplacer("-", "+", "_", "/")

func (f *Hasher) extra(m map[string]json.RawMessage) {
	if len(m) == 0 {
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		if k != CacheControl {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		f.str(k)
		f.raw(m[k])
	}
}

// WithoutCacheControl returns raw without its top-level cache_control key
// when it is an object that has one; raw itself otherwise.
func WithoutCacheControl(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || raw[0] != '{' || !bytes.Contains(raw, []byte(`"`+CacheControl+`"`)) {
		return raw
	}
	fields, err := rawjson.Fields(raw)
	if err != nil {
		return raw
	}
	var o rawjson.Object
	for _, fd := range fields {
		if fd.Key != CacheControl {
			o.Raw(fd.Key, fd.Value)
		}
	}
	return o.Bytes()
}

// Mix folds fingerprint v into running hash h (prefix hashes, message
// fingerprints from unit fingerprints).
func Mix(h, v uint64) uint64 {
	h ^= v + 0x9e3779b97f4a7c15 + (h << 6) + (h >> 2)
	h ^= h >> 31
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 29
	return h
}
