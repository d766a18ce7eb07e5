package engine

import "sync"

// Memo remembers decoded history messages by their position and raw bytes,
// so that the requests of a growing conversation, each repeating the whole
// history, decode each message once: a cassette is then decoded in time
// linear in its distinct content. The Messages it hands out share their
// blocks with every request that holds them and must not be changed. A Memo
// is safe for concurrent use; the zero value is not ready, NewMemo is.
type Memo struct {
	mu   sync.Mutex
	msgs map[string][]memoEntry // raw bytes → the messages decoded from them, by position
	n    int
}

type memoEntry struct {
	at  int
	msg Message
}

// memoMax bounds the entries a Memo keeps: past it, it starts over, so a
// long recording session does not grow it without end.
const memoMax = 1 << 16

// NewMemo returns an empty Memo.
func NewMemo() *Memo { return &Memo{msgs: map[string][]memoEntry{}} }

// Message returns the message decoded from raw at position at, calling
// decode the first time. A nil Memo always decodes.
func (m *Memo) Message(at int, raw []byte, decode func() (Message, error)) (Message, error) {
	if m == nil {
		return decode()
	}
	m.mu.Lock()
	for _, e := range m.msgs[string(raw)] {
		if e.at == at {
			m.mu.Unlock()
			return e.msg, nil
		}
	}
	m.mu.Unlock()
	msg, err := decode()
	if err != nil {
		return msg, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.n >= memoMax {
		clear(m.msgs)
		m.n = 0
	}
	key := string(raw)
	m.msgs[key] = append(m.msgs[key], memoEntry{at, msg})
	m.n++
	return msg, nil
}
