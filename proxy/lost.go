package proxy

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// lostCalls counts the calls a recorder served but did not write, by
// reason, for the summary Close returns.
type lostCalls struct {
	mu       sync.Mutex
	byReason map[string]int
}

func (l *lostCalls) add(reason string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.byReason == nil {
		l.byReason = map[string]int{}
	}
	l.byReason[reason]++
}

// err is nil when every call was recorded, else "3 calls were not
// recorded: 2 writing the cassette failed, 1 it holds a credential".
func (l *lostCalls) err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	total := 0
	var parts []string
	for reason, n := range l.byReason {
		total += n
		parts = append(parts, fmt.Sprintf("%d %s", n, reason))
	}
	if total == 0 {
		return nil
	}
	sort.Strings(parts)
	calls := "calls were"
	if total == 1 {
		calls = "call was"
	}
	return fmt.Errorf("%d %s not recorded (the clients were answered; see the NOT RECORDED log lines): %s", total, calls, strings.Join(parts, ", "))
}

// notRecorded notes on the call's log line that it is not in the cassette,
// and counts it for Close.
func (c *call) notRecorded(reason, detail string) {
	c.addNote("NOT RECORDED: " + detail)
	c.r.lost.add(reason)
}
