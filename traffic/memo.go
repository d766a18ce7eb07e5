package traffic

import (
	"bytes"
	"encoding/json"
	"errors"
	"sync"

	"github.com/llmtck/llmtck/internal/rawjson"
)

// Memo remembers decoded history messages by their position and raw bytes,
// so that the requests of a growing conversation, each repeating the whole
// history, decode each message once, and the message lists of requests
// that extend one another share their memory: a cassette is then decoded in
// time and memory linear in its distinct content, not in its size. The
// Messages it hands out are shared by every request that holds them and
// must not be changed. A Memo is safe for concurrent use; NewMemo makes one.
type Memo struct {
	mu    sync.Mutex
	wires map[Wire]*Memo // For
	msgs  map[memoKey]memoEntry
	size  int    // bytes held: each entry's raw bytes, and about as much decoded
	next  uint64 // the id of the next entry
	last  *list  // the list handed out last, nil while a List holds it
}

// memoKey is a message's position and raw bytes. The position is part of
// the key, not a list under it: an agent's history repeats some messages
// word for word ("ok", one tool result) at hundreds of positions, and a
// list to search would make decoding each request quadratic in its length.
type memoKey struct {
	at  int
	raw string
}

type memoEntry struct {
	id  uint64
	msg Message
}

// list is a message list with the memo ids of its messages; msgs may have
// room beyond its length, owned by whoever holds the list.
type list struct {
	ids  []uint64
	msgs []Message
	// raw is the JSON array the list was read from, through its last item
	// (a copy the list owns), when the reader gave it (List.Array).
	raw []byte
}

// memoMax and memoMaxSize bound the entries a Memo keeps and the bytes they
// hold: past either, it starts over, so a long recording session does not
// grow it without end. Each wire's memo (For) is bounded on its own.
const (
	memoMax     = 1 << 16
	memoMaxSize = 32 << 20
)

// NewMemo returns an empty Memo.
func NewMemo() *Memo { return &Memo{msgs: map[memoKey]memoEntry{}} }

// For returns the memo of the requests of wire w, made on first use: the
// same bytes are a different message on another wire, and a request
// extends the last one of its own wire.
func (m *Memo) For(w Wire) *Memo {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.wires == nil {
		m.wires = map[Wire]*Memo{}
	}
	sub := m.wires[w]
	if sub == nil {
		sub = NewMemo()
		m.wires[w] = sub
	}
	return sub
}

// DecodeMessages decodes a request's message array through the memo,
// message by message: decode reads the item at index i, and is called only
// for an item the memo has not seen at that position, once the item is
// known to be valid JSON (the array's items need not have been validated;
// see rawjson.ValidatedExcept). The items the array repeats, byte for byte,
// from the one decoded before it are not read again.
func (m *Memo) DecodeMessages(array json.RawMessage, decode func(i int, item json.RawMessage) (Message, error)) ([]Message, error) {
	if oneItem(array) {
		// An eval harness's prompt, decoded alone: it is a conversation's
		// first request at most, and a run of prompts that never repeat
		// would fill the memo, and the heap the collector marks, for
		// nothing.
		m = nil
	}
	list := m.List()
	known, end := list.Array(array)
	err := rawjson.ShallowEachFrom(array, known, end, func(i int, item json.RawMessage, end int) error {
		err := list.Add(i, item, func() (Message, error) {
			if !rawjson.Valid(item) {
				return Message{}, errInvalidItem
			}
			return decode(i, item)
		})
		if err == nil {
			list.ReadTo(end)
		}
		return err
	})
	msgs := list.Messages() // also when err: the list goes back to the memo
	if err != nil {
		return nil, err
	}
	return msgs, nil
}

// oneItem reports whether array is a well-formed array of one item (the
// item itself unchecked).
func oneItem(array json.RawMessage) bool {
	n := 0
	err := rawjson.ShallowEachFrom(array, 0, 0, func(int, json.RawMessage, int) error {
		n++
		if n > 1 {
			return errInvalidItem // enough: any error stops the walk
		}
		return nil
	})
	return n == 1 && err == nil
}

// errInvalidItem is DecodeMessages' error for an item that is not valid
// JSON; the decoder then names the fault in the whole body.
var errInvalidItem = errors.New("invalid JSON")

// message returns the message decoded from raw at position at and its id,
// calling decode the first time.
func (m *Memo) message(at int, raw []byte, decode func() (Message, error)) (Message, uint64, error) {
	m.mu.Lock()
	e, ok := m.msgs[memoKey{at, string(raw)}]
	m.mu.Unlock()
	if ok {
		return e.msg, e.id, nil
	}
	msg, err := decode()
	if err != nil {
		return msg, 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.msgs) >= memoMax || m.size >= memoMaxSize {
		clear(m.msgs)
		m.size = 0
	}
	m.next++
	m.msgs[memoKey{at, string(raw)}] = memoEntry{m.next, msg}
	m.size += 2 * len(raw)
	return msg, m.next, nil
}

// LastArray is the JSON array the list handed out last was read from,
// through its last item, or nil: a request reader scans a value that
// starts with it from its end on (rawjson.ShallowObjectKnowing). Its bytes
// never change.
func (m *Memo) LastArray() []byte {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.last == nil {
		return nil
	}
	return m.last.raw
}

// List starts the message list of one request; a nil Memo gives a list
// that only decodes.
func (m *Memo) List() *List {
	l := &List{memo: m}
	if m != nil {
		m.mu.Lock()
		l.prev, m.last = m.last, nil // held by l until Messages
		m.mu.Unlock()
	}
	return l
}

// List builds the message list of one request, message by message. While
// the request repeats the list handed out before it, it shares that list's
// memory.
type List struct {
	memo *Memo
	prev *list // the last list handed out, to extend
	ids  []uint64
	msgs []Message
	// shared counts the leading messages that are prev's: they are not
	// copied until the request departs from prev.
	shared int
	// array is the JSON array the items come from (Array), end the offset
	// just past the last item added (ReadTo); resumed says that array
	// starts with prev's raw bytes.
	array   []byte
	end     int
	resumed bool
}

// Array gives the list the JSON array its items come from, and returns how
// many of its leading items are, byte for byte, the items of the list it
// extends, and the offset just past them: the reader adds only the items
// after them (rawjson.ShallowEachFrom), and a growing conversation's
// request is read in time linear in what it adds. Call it before Add.
func (l *List) Array(array []byte) (n, end int) {
	l.array = array
	p := l.prev
	if l.memo == nil || p == nil || len(p.raw) == 0 || !bytes.HasPrefix(array, p.raw) {
		return 0, 0
	}
	l.resumed = true
	l.shared = len(p.ids)
	l.ids = append(l.ids, p.ids...)
	l.end = len(p.raw)
	return len(p.ids), len(p.raw)
}

// ReadTo records that the items added so far end at offset end of the
// array given to Array.
func (l *List) ReadTo(end int) { l.end = end }

// Add decodes the message at position at from raw through the memo
// (decode is called only for bytes it has not seen there).
func (l *List) Add(at int, raw []byte, decode func() (Message, error)) error {
	if l.memo == nil {
		msg, err := decode()
		if err == nil {
			l.msgs = append(l.msgs, msg)
		}
		return err
	}
	msg, id, err := l.memo.message(at, raw, decode)
	if err != nil {
		return err
	}
	if l.prev != nil && l.shared < len(l.prev.ids) {
		if l.prev.ids[l.shared] == id {
			l.shared++
			l.ids = append(l.ids, id)
			return nil
		}
		// The request departs from prev here: copy what it shared.
		l.msgs = append(make([]Message, 0, 2*len(l.ids)+1), l.prev.msgs[:l.shared]...)
		l.prev = nil
	}
	// Past prev's end (l.msgs holds the new tail) or on a list of its own.
	l.ids = append(l.ids, id)
	l.msgs = append(l.msgs, msg)
	return nil
}

// Messages ends the list and returns it, with no room to append to (an
// append by its holder copies). The list becomes the one the next List
// extends.
func (l *List) Messages() []Message {
	if l.memo == nil {
		if l.msgs == nil {
			return []Message{}
		}
		return l.msgs[:len(l.msgs):len(l.msgs)]
	}
	var own *list
	switch {
	case l.prev != nil && l.shared == len(l.prev.ids):
		// All of prev, then the new messages: append in prev's room.
		msgs := append(l.prev.msgs[:l.shared], l.msgs...)
		own = &list{ids: l.ids, msgs: msgs, raw: l.raw()}
	case l.prev != nil:
		// A prefix of prev: share it, and leave prev the one to extend.
		own = l.prev
		l.memo.mu.Lock()
		l.memo.last = own
		l.memo.mu.Unlock()
		return prevPrefix(own.msgs, l.shared)
	default:
		own = &list{ids: l.ids, msgs: l.msgs, raw: l.raw()}
	}
	l.memo.mu.Lock()
	l.memo.last = own
	l.memo.mu.Unlock()
	if own.msgs == nil {
		return []Message{}
	}
	return own.msgs[:len(l.ids):len(l.ids)]
}

// raw is the array the list was read from, through its last item, for the
// next list to compare with: prev's bytes extended in their room when the
// array starts with them, else a copy; none past the memo's size bound.
func (l *List) raw() []byte {
	switch {
	case l.array == nil || l.end == 0 || l.end > memoMaxSize:
		return nil
	case l.resumed:
		return append(l.prev.raw, l.array[len(l.prev.raw):l.end]...)
	}
	return append([]byte(nil), l.array[:l.end]...)
}

func prevPrefix(msgs []Message, n int) []Message {
	if n == 0 {
		return []Message{}
	}
	return msgs[:n:n]
}
