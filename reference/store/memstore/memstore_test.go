package memstore_test

import (
	"testing"

	"github.com/llmtck/llmtck/engine/store"
	"github.com/llmtck/llmtck/engine/store/storetest"
	"github.com/llmtck/llmtck/reference/store/memstore"
)

func TestContract(t *testing.T) {
	storetest.TestPayloadStore(t, func(*testing.T) store.PayloadStore { return memstore.New() })
}
