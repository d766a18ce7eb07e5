package proxy

import (
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/llmtck/llmtck/cassette"
)

// Close does not wait for the syncer's next turn: it fsyncs the file
// itself. With a turn of an hour, an append after the syncer has taken the
// first one leaves it waiting; Close still returns at once, the
// interactions written.
func TestCloseDoesNotWaitForTheSyncersTurn(t *testing.T) {
	defer func(d time.Duration) { syncEvery = d }(syncEvery)
	syncEvery = time.Hour
	path := filepath.Join(t.TempDir(), "c.yaml")
	s, _, err := openSink(path, func(msg string) { t.Error(msg) }, false)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		in := &cassette.Interaction{
			Request:  cassette.Request{Method: "POST", URL: "https://api.anthropic.com/v1/messages", Body: []byte(`{}`)},
			Response: cassette.Response{Status: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{}`)},
		}
		if _, err := s.append(uint64(i+1), in, nil); err != nil {
			t.Fatal(err)
		}
		// The syncer takes the first append's kick (and syncs at once, its
		// first turn); the second's then waits for its next turn.
		for deadline := time.Now().Add(10 * time.Second); len(s.kick) > 0 && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
	}
	closed := make(chan error, 1)
	go func() { closed <- s.close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute): // far below the turn: the close waited for it
		t.Fatal("close is waiting for the syncer's next turn")
	}
	c, err := cassette.Load(path)
	if err != nil || len(c.Interactions) != 2 {
		t.Fatalf("cassette after close: %v, %d interactions, want 2", err, len(c.Interactions))
	}
}
