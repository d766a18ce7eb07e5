package storetest_test

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmtck/llmtck/reference/store"
	"github.com/llmtck/llmtck/reference/store/memstore"
	"github.com/llmtck/llmtck/reference/store/storetest"
)

// Deliberately broken stores: each breaks one rule of the contract.
type (
	oldestFirst struct{ *memstore.Store } // Limit keeps the oldest
	strictGet   struct{ *memstore.Store } // Get fails on an unknown id
	forgetful   struct{ *memstore.Store } // MarkRemoved drops the summary
	lenient     struct{ *memstore.Store } // updates of unknown ids succeed
	aliasing    struct {                  // Get hands out the caller's own pointers
		mu *sync.Mutex // only so ConcurrentWriters cannot crash the run
		m  map[string]*store.Message
		*memstore.Store
	}
	roundedMinutes  struct{ *memstore.Store } // times lose their seconds
	looseCandidates struct{ *memstore.Store } // ListCandidates ignores types and the time bound
	listAliasing    struct{ *memstore.Store } // List hands out one shared record per id
	summaryWipes    struct{ *memstore.Store } // UpdateSummary rewrites the record without its tags
)

func (s looseCandidates) ListCandidates(conv string, o store.CandidateOptions) ([]store.Candidate, error) {
	o.Types, o.OlderThan = nil, nil
	return s.Store.ListCandidates(conv, o)
}

// shared holds the records listAliasing hands out, one per id.
var shared = struct {
	sync.Mutex
	m map[string]*store.Message
}{m: map[string]*store.Message{}}

func (s listAliasing) List(conv string, f store.Filter) ([]*store.Message, error) {
	ms, err := s.Store.List(conv, f)
	shared.Lock()
	defer shared.Unlock()
	for i, m := range ms {
		if have, ok := shared.m[m.ID]; ok {
			ms[i] = have
		} else {
			shared.m[m.ID] = m
		}
	}
	return ms, err
}

func (s listAliasing) Get(conv string, ids ...string) ([]*store.Message, error) {
	ms, err := s.Store.Get(conv, ids...)
	shared.Lock()
	defer shared.Unlock()
	for i, m := range ms {
		if have, ok := shared.m[m.ID]; ok {
			ms[i] = have
		}
	}
	return ms, err
}

func (s summaryWipes) UpdateSummary(id, summary string) error {
	for _, conv := range []string{"c1", "c2"} {
		if ms, _ := s.Store.Get(conv, id); len(ms) == 1 {
			m := ms[0]
			return s.Store.Put(&store.Message{ID: m.ID, ConversationID: m.ConversationID, Type: m.Type, CreatedAt: m.CreatedAt, Content: m.Content, Summary: summary})
		}
	}
	return s.Store.UpdateSummary(id, summary)
}

func (s oldestFirst) List(conv string, f store.Filter) ([]*store.Message, error) {
	limit := f.Limit
	f.Limit = 0
	ms, err := s.Store.List(conv, f)
	if limit > 0 && len(ms) > limit {
		ms = ms[:limit]
	}
	return ms, err
}

func (s strictGet) Get(conv string, ids ...string) ([]*store.Message, error) {
	ms, err := s.Store.Get(conv, ids...)
	if err == nil && len(ms) != len(ids) {
		return nil, store.ErrNotFound
	}
	return ms, err
}

func (s forgetful) MarkRemoved(id string, removed bool, at *time.Time) error {
	if err := s.Store.UpdateSummary(id, ""); err != nil {
		return err
	}
	return s.Store.MarkRemoved(id, removed, at)
}

func (s lenient) UpdateSummary(id, summary string) error {
	if err := s.Store.UpdateSummary(id, summary); !errors.Is(err, store.ErrNotFound) {
		return err
	}
	return nil
}

func (s aliasing) Put(m *store.Message) error {
	if err := s.Store.Put(m); err != nil {
		return err
	}
	s.mu.Lock()
	s.m[m.ID] = m
	s.mu.Unlock()
	return nil
}

func (s aliasing) Get(conv string, ids ...string) ([]*store.Message, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*store.Message
	for _, id := range ids {
		if m, ok := s.m[id]; ok && m.ConversationID == conv {
			out = append(out, m)
		}
	}
	return out, nil
}

func (s roundedMinutes) Put(m *store.Message) error {
	if m != nil {
		c := *m
		c.CreatedAt = m.CreatedAt.Truncate(time.Minute)
		m = &c
	}
	return s.Store.Put(m)
}

var broken = map[string]func() store.MessageStore{
	"oldestFirst":     func() store.MessageStore { return oldestFirst{memstore.New()} },
	"strictGet":       func() store.MessageStore { return strictGet{memstore.New()} },
	"forgetful":       func() store.MessageStore { return forgetful{memstore.New()} },
	"lenient":         func() store.MessageStore { return lenient{memstore.New()} },
	"aliasing":        func() store.MessageStore { return aliasing{&sync.Mutex{}, map[string]*store.Message{}, memstore.New()} },
	"roundedMinutes":  func() store.MessageStore { return roundedMinutes{memstore.New()} },
	"looseCandidates": func() store.MessageStore { return looseCandidates{memstore.New()} },
	"listAliasing": func() store.MessageStore {
		shared.Lock()
		clear(shared.m)
		shared.Unlock()
		return listAliasing{memstore.New()}
	},
	"summaryWipes": func() store.MessageStore { return summaryWipes{memstore.New()} },
}

// TestBrokenStoreHelper runs the contract on the broken store named by
// LLMTCK_BROKEN_STORE; it is run as a subprocess by TestContractCatchesBrokenStores.
func TestBrokenStoreHelper(t *testing.T) {
	name := os.Getenv("LLMTCK_BROKEN_STORE")
	if name == "" {
		t.Skip("run by TestContractCatchesBrokenStores")
	}
	storetest.TestMessageStore(t, func(*testing.T) store.MessageStore { return broken[name]() })
}

func TestContractCatchesBrokenStores(t *testing.T) {
	if testing.Short() {
		t.Skip("runs subprocesses")
	}
	tests := []struct {
		store string
		fails []string // the subtests that must fail
	}{
		{"oldestFirst", []string{"ListFilter"}},
		{"strictGet", []string{"GetOrderAndUnknownIDs"}},
		{"forgetful", []string{"MarkRemoved"}},
		{"lenient", []string{"UpdateSummary"}},
		{"aliasing", []string{"PutAndGetCopy"}},
		{"roundedMinutes", []string{"PutGetRoundTrip"}},
		{"looseCandidates", []string{"ListCandidates"}},
		{"listAliasing", []string{"PutAndGetCopy"}},
		{"summaryWipes", []string{"UpdateSummary"}},
	}
	for _, tt := range tests {
		t.Run(tt.store, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestBrokenStoreHelper$", "-test.v", "-test.count=1")
			cmd.Env = append(os.Environ(), "LLMTCK_BROKEN_STORE="+tt.store)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("the contract passed a broken store:\n%s", out)
			}
			for _, sub := range tt.fails {
				if !strings.Contains(string(out), "--- FAIL: TestBrokenStoreHelper/"+sub+" ") {
					t.Errorf("subtest %s did not fail:\n%s", sub, out)
				}
			}
			if strings.Contains(string(out), "panic:") {
				t.Errorf("the contract panicked:\n%s", out)
			}
		})
	}
}

func TestContractPassesMemstore(t *testing.T) {
	storetest.TestMessageStore(t, func(*testing.T) store.MessageStore { return memstore.New() })
}
