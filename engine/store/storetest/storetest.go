// Package storetest is deprecated: the store contract test moved to
// reference/store/storetest. These aliases stay for one release.
package storetest

import refstoretest "github.com/llmtck/llmtck/reference/store/storetest"

// TestMessageStore is refstoretest.TestMessageStore.
//
// Deprecated: use github.com/llmtck/llmtck/reference/store/storetest.TestMessageStore.
var TestMessageStore = refstoretest.TestMessageStore

// TestPayloadStore is refstoretest.TestPayloadStore.
//
// Deprecated: use github.com/llmtck/llmtck/reference/store/storetest.TestPayloadStore.
var TestPayloadStore = refstoretest.TestPayloadStore
