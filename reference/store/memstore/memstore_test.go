package memstore_test

import (
	"testing"

	"github.com/llmtck/llmtck/reference/store"
	"github.com/llmtck/llmtck/reference/store/memstore"
	"github.com/llmtck/llmtck/reference/store/storetest"
)

func TestContract(t *testing.T) {
	storetest.TestPayloadStore(t, func(*testing.T) store.PayloadStore { return memstore.New() })
}
