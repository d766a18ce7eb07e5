package conformance

import (
	"testing"

	"github.com/llmtck/llmtck/reference/store"
	"github.com/llmtck/llmtck/reference/store/storetest"
)

// TestMessageStore runs the message-store contract
// (docs/reference-model.md, seed 002, with the semantics documented on
// store.MessageStore) against stores made by newStore, one fresh store per
// subtest. A harness repository runs it on its own implementation:
//
//	func TestMyStore(t *testing.T) {
//		conformance.TestMessageStore(t, func(t *testing.T) store.MessageStore { return mystore.New() })
//	}
//
// It is storetest.TestMessageStore, named here so one import serves a test.
func TestMessageStore(t *testing.T, newStore func(t *testing.T) store.MessageStore) {
	t.Helper()
	storetest.TestMessageStore(t, newStore)
}
