package check

import (
	"strconv"
	"sync"
	"testing"
	"time"
)

// TestAnalysisIsOnePerNameUnderConcurrentChecks: checks that ask for the
// same analysis at once all get the one kept, for more names than the
// lock-free room holds (run with -race).
func TestAnalysisIsOnePerNameUnderConcurrentChecks(t *testing.T) {
	tr := &Traffic{}
	const names, askers = 2*maxAnalyses + 3, 8
	got := make([][askers]*int, names)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for a := range askers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for n := range names {
				got[n][a] = Analysis(tr, "analysis-"+strconv.Itoa(n), func(*Traffic) *int {
					time.Sleep(time.Millisecond) // long enough for the others to build it too
					v := n
					return &v
				})
			}
		}()
	}
	close(start)
	wg.Wait()
	for n := range names {
		kept := Analysis(tr, "analysis-"+strconv.Itoa(n), func(*Traffic) *int { t.Fatalf("analysis %d built again after all asked", n); return nil })
		if *kept != n {
			t.Fatalf("analysis %d holds %d", n, *kept)
		}
		for a, p := range got[n] {
			if p != kept {
				t.Errorf("asker %d got a different analysis %d from the one kept", a, n)
			}
		}
	}
}
