package proxy

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/llmtck/llmtck/cassette"
)

// Mode says what the recorder does with a call.
type Mode string

const (
	ModeRecord      Mode = "record"      // forward every call and record it
	ModeReplay      Mode = "replay"      // answer from the cassette only; never touch the network
	ModeAuto        Mode = "auto"        // replay what matches, forward and record the rest
	ModePassthrough Mode = "passthrough" // forward and log, record nothing
)

// ParseMode reads a --mode value.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case ModeRecord, ModeReplay, ModeAuto, ModePassthrough:
		return m, nil
	}
	return "", fmt.Errorf("unknown mode %q: expected record, replay, auto or passthrough", s)
}

// Timing says how replay paces what it serves.
type Timing struct {
	// Scale multiplies recorded delays: 0 serves at once, 1 as recorded,
	// 2 twice as slowly. Streams are served event by event either way.
	Scale float64
}

// ParseTiming reads a --timing value: instant, recorded or scale=K.
func ParseTiming(s string) (Timing, error) {
	switch {
	case s == "instant":
		return Timing{}, nil
	case s == "recorded":
		return Timing{Scale: 1}, nil
	case strings.HasPrefix(s, "scale="):
		k, err := strconv.ParseFloat(strings.TrimPrefix(s, "scale="), 64)
		if err == nil && k >= 0 && k <= 1000 {
			return Timing{Scale: k}, nil
		}
	}
	return Timing{}, fmt.Errorf("unknown timing %q: expected instant, recorded or scale=K with 0 ≤ K ≤ 1000", s)
}

// Headers llmtck adds to a recorded response to say what went wrong. Replay
// acts on them and never serves them.
const (
	headerTruncated  = "X-Llmtck-Truncated"  // the body broke off; the value says why
	headerIncomplete = "X-Llmtck-Incomplete" // the body ended cleanly, but before the stream's terminal event
	headerError      = "X-Llmtck-Error"      // no response at all (status 0); the value is the error
)

// Options configure a Recorder.
type Options struct {
	Mode Mode
	// Cassette is the file every call is recorded to or replayed from;
	// Dir, instead, holds one cassette per host (see CassetteFor).
	Cassette string
	Dir      string
	// Upstream sends forwarded calls; nil means NewUpstream().
	Upstream http.RoundTripper
	// RedactHeaders names headers whose values are masked in cassettes and
	// logs besides the credential headers every provider uses (API keys,
	// bearer tokens, cookies), which always are.
	RedactHeaders []string
	// Judge, when set, builds the judge of each cassette (lint.New with
	// the checks to run; `llmtck` passes the whole catalogue), which
	// judges every request against the calls before it on the same
	// cassette; its
	// findings go on the call's log line, which is then written a moment
	// after the call's answer (the linter runs off the calls' path; Close
	// waits for it). With Check as well, replay answers a request the
	// provider would refuse with the provider's own status and error body
	// instead of the recording, and judges it before answering it.
	Judge  func() Judge
	Check  bool
	Timing Timing
	// CassetteFormat is the layout cassettes are left in: "" or "v2" for
	// go-vcr v2 (`version: 1`), "v4" for go-vcr v3/v4 (`version: 2`). Calls
	// are appended as v2 while recording, so a killed recorder still leaves
	// a cassette llmtck and go-vcr v2 load; Close rewrites each as v4.
	CassetteFormat string
	// Match says what replay compares; the zero value compares method,
	// path, query and the body as JSON.
	Match cassette.Matcher
	// Log receives one line per call and warnings; nil discards them. A
	// cassette's lines come in the order its calls' requests started (a
	// call's line waits for the calls before it), and cassette=FILE#N
	// names the interaction's place in the file Close leaves.
	Log io.Writer
}

// NewUpstream returns the transport forwarded calls go out on. It ignores
// HTTPS_PROXY and friends: a harness pointed at this proxy often exports
// them, and following them would loop back here.
func NewUpstream() *http.Transport {
	return &http.Transport{
		Proxy:                 nil,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   64,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
		// No response timeout: a long generation may take minutes.
	}
}
