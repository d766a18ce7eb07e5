package store_test

import (
	"fmt"
	"time"

	"github.com/llmtck/llmtck/reference/store"
	"github.com/llmtck/llmtck/reference/store/memstore"
)

// A tool result too large to keep is removed logically: it leaves the
// listing, keeps its summary, and can still be listed with IncludeRemoved.
func ExampleMessageStore() {
	var s store.MessageStore = memstore.New()
	at := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	for i, m := range []store.Message{
		{ID: "m1", Type: store.TypeUser, Content: "What is in config.yaml?"},
		{ID: "m2", Type: store.TypeTool, ToolName: "read_file", Content: "…40 KB of YAML…"},
		{ID: "m3", Type: store.TypeAssistant, Content: "It sets three upstreams."},
	} {
		m.ConversationID, m.CreatedAt = "c1", at.Add(time.Duration(i)*time.Minute)
		if err := s.Put(&m); err != nil {
			fmt.Println(err)
			return
		}
	}
	s.UpdateSummary("m2", "read config.yaml: three upstreams")
	removedAt := at.Add(time.Hour)
	s.MarkRemoved("m2", true, &removedAt)

	live, _ := s.List("c1", store.Filter{})
	for _, m := range live {
		fmt.Println(m.ID, m.Type, m.Content)
	}
	all, _ := s.List("c1", store.Filter{Types: []store.Type{store.TypeTool}, IncludeRemoved: true})
	for _, m := range all {
		fmt.Println(m.ID, "removed:", m.Removed, "summary:", m.Summary)
	}
	// Output:
	// m1 user What is in config.yaml?
	// m3 assistant It sets three upstreams.
	// m2 removed: true summary: read config.yaml: three upstreams
}
