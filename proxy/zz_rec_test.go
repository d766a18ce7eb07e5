package proxy

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

func BenchmarkZZRecordOnly(b *testing.B) {
	resp := bytes.Repeat([]byte("x"), 2048)
	respBody := []byte(`{"id":"msg_1","type":"message","content":[{"type":"text","text":"` + string(resp) + `"}]}`)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Write(respBody)
	}))
	defer up.Close()
	rt := benchRoutes(b, up)[3]
	reqBody := []byte(`{"model":"claude-x","max_tokens":10,"messages":[{"role":"user","content":"` + string(resp[:1024]) + `"}]}`)
	b.ResetTimer()
	var next atomic.Int32
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for int(next.Add(1)) <= b.N {
				r, err := rt.client.Post(rt.url+"/v1/messages", "application/json", bytes.NewReader(reqBody))
				if err != nil {
					b.Error(err)
					return
				}
				io.Copy(io.Discard, r.Body)
				r.Body.Close()
			}
		}()
	}
	wg.Wait()
}
