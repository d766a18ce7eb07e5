package memstore_test

import (
	"testing"

	"github.com/llmtck/llmtck/conformance"
	"github.com/llmtck/llmtck/engine/store"
	"github.com/llmtck/llmtck/engine/store/memstore"
)

func TestContract(t *testing.T) {
	conformance.TestMessageStore(t, func(*testing.T) store.MessageStore { return memstore.New() })
}
