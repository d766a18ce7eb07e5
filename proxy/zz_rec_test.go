package proxy

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkZZCPU(b *testing.B) {
	resp := bytes.Repeat([]byte("x"), 2048)
	respBody := []byte(`{"id":"msg_1","type":"message","content":[{"type":"text","text":"` + string(resp) + `"}]}`)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Write(respBody)
	}))
	defer up.Close()
	routes := benchRoutes(b, up)
	reqBody := []byte(`{"model":"claude-x","max_tokens":10,"messages":[{"role":"user","content":"` + string(resp[:1024]) + `"}]}`)
	for _, rt := range routes {
		n := 3000
		run := func() {
			var next atomic.Int32
			var wg sync.WaitGroup
			for range 16 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for int(next.Add(1)) <= n {
						r, _ := rt.client.Post(rt.url+"/v1/messages", "application/json", bytes.NewReader(reqBody))
						io.Copy(io.Discard, r.Body)
						r.Body.Close()
					}
				}()
			}
			wg.Wait()
		}
		run()
		c0 := cpuTime()
		run()
		b.ReportMetric(float64((cpuTime()-c0).Microseconds())/float64(n), "cpu-µs/call-"+rt.name)
	}
}
