package simulator

import (
	"fmt"
	"net"
	"net/http"
	"sort"
	"time"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/traffic"
)

// mergeFindings is a followed by the findings of b not already in it (the
// simulator's own findings repeat the catalogue's on the same request),
// in interaction order.
func mergeFindings(a, b []check.Finding) []check.Finding {
	type key struct {
		check, loc string
		at         int
	}
	seen := map[key]bool{}
	out := append([]check.Finding(nil), a...)
	for _, f := range a {
		seen[key{f.Check, f.Location, f.Interaction}] = true
	}
	for _, f := range b {
		if k := (key{f.Check, f.Location, f.Interaction}); !seen[k] {
			seen[k] = true
			out = append(out, f)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Interaction < out[j].Interaction })
	return out
}

// Play serves sc on loopback HTTP, one listener per provider, runs play
// with the session, and returns the simulator that judged the traffic. Its
// error is play's, or a listener that could not start.
func Play(sc *scenario.Scenario, play func(*Session) error) (*Simulator, error) {
	sim := NewSimulator(sc)
	return sim, sim.Play(play)
}

// Play serves the simulator's scenario on loopback, one server per
// provider, for as long as play runs; set the simulator's fields first.
func (sim *Simulator) Play(play func(*Session) error) error {
	sc := sim.sc
	urls := map[traffic.Wire]string{}
	for _, w := range sc.Wires() {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return fmt.Errorf("conformance: simulating %s: %w", w, err)
		}
		srv := &http.Server{Handler: sim.Handler(w), ReadHeaderTimeout: time.Minute}
		go srv.Serve(ln)
		defer srv.Close()
		urls[w] = "http://" + ln.Addr().String()
	}
	s := NewSession(sc, urls, sim)
	return play(s)
}

// NewSession returns the session a harness is given to play sc against
// providers at urls: the simulator's handlers, or a proxy in front of them.
// sim presses stop through the session's OnCancel hook.
func NewSession(sc *scenario.Scenario, urls map[traffic.Wire]string, sim *Simulator) *Session {
	s := newSession(sc, urls)
	if sim != nil {
		sim.OnCancel = s.cancel
		s.onExec = sim.executed
	}
	return s
}
