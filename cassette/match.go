package cassette

import (
	"bytes"
	"io"
	"net/http"

	"github.com/llmtck/llmtck/internal/redact"
	"github.com/llmtck/llmtck/internal/reqmatch"
)

// Matcher says what must be equal for a recorded request to answer an
// incoming one, as go-vcr's MatcherFunc and vcrpy's match_on do; `llmtck
// replay` matches with one. The zero value is DefaultMatcher.
type Matcher struct {
	// On lists the parts compared: "method", "path", "query", "body-json"
	// (the JSON value, key order and whitespace aside, the wire's volatile
	// fields and Ignore left out), "body" (the exact bytes) and
	// "header:NAME". Empty means DefaultMatchOn.
	On []string
	// Ignore are paths of object keys ("metadata.user_id", "temperature")
	// that body-json leaves out, besides the wire's own volatile fields (a
	// per-session user id, a prompt cache key).
	Ignore []string
}

// DefaultMatchOn is what a Matcher compares unless told otherwise.
var DefaultMatchOn = []string{"method", "path", "query", "body-json"}

// DefaultMatcher compares method, path, query and the body as JSON.
var DefaultMatcher = Matcher{}

// ParseMatcher reads a Matcher as `llmtck replay` takes it: on is a
// comma-separated list of DefaultMatchOn's parts, "body" or "header:NAME"
// (--match), ignore the dotted JSON paths of --match-ignore.
func ParseMatcher(on string, ignore []string) (Matcher, error) {
	s, err := reqmatch.Parse(on, ignore)
	return Matcher(s), err
}

// String is the matcher as the flags would give it.
func (m Matcher) String() string { return reqmatch.Spec(m).String() }

// Match reports whether the recorded request rec answers req, the shape of
// go-vcr's MatcherFunc. req's body is read and put back.
func (m Matcher) Match(req *http.Request, rec Request) bool {
	return m.MatchRequest(RequestFrom(req), rec)
}

// MatchRequest reports whether the recorded request rec answers got.
func (m Matcher) MatchRequest(got, rec Request) bool {
	return bytes.Equal(m.Key(got), m.Key(rec))
}

// Key returns req's match key: two requests match when their keys are
// equal. Credentials in the URL are masked first, as the recorder masks
// them, so a live key matches the recorded mask.
func (m Matcher) Key(req Request) []byte {
	target := reqmatch.Target(redact.Default().URL(req.URL))
	return reqmatch.Spec(m).Key(nil, req.Method, target, req.Header, reqmatch.WireOf(req.URL, req.Body), req.Body)
}

// Find returns the index of the first interaction of c whose request
// matches req, or -1. Replay serves the interactions that match one
// request in turn; Find gives the first of them.
func (m Matcher) Find(c *Cassette, req Request) int {
	key := m.Key(req)
	for i, in := range c.Interactions {
		if in.Request.Method != "" && bytes.Equal(m.Key(in.Request), key) {
			return i
		}
	}
	return -1
}

// Explain says why no interaction of c answers req: which recorded request
// is nearest (same method and path first, then the fewest differing JSON
// paths) and how the two differ, as replay's 404 says it.
func (m Matcher) Explain(c *Cassette, req Request) *Miss {
	mask := redact.Default().URL
	var recorded []reqmatch.Recorded
	for i, in := range c.Interactions {
		r := in.Request
		if r.Method == "" {
			continue // response-only recordings have no request to compare
		}
		recorded = append(recorded, reqmatch.Recorded{Index: i, Method: r.Method, Target: reqmatch.Target(mask(r.URL)), Wire: reqmatch.WireOf(r.URL, r.Body), Body: r.Body})
	}
	target := reqmatch.Target(mask(req.URL))
	return &Miss{Method: req.Method, Target: target, miss: reqmatch.Nearest(recorded, req.Method, target, reqmatch.WireOf(req.URL, req.Body), req.Body)}
}

// Miss explains why no recorded request answers one that was made.
type Miss struct {
	// Method and Target are the request that missed: its path and sorted
	// query, credentials masked.
	Method, Target string
	miss           *reqmatch.Miss
}

// Nearest is the index of the nearest recorded interaction, or -1 when the
// cassette holds no request.
func (m *Miss) Nearest() int {
	if m.miss.Nearest == nil {
		return -1
	}
	return m.miss.Nearest.Index
}

// Diffs lists how the request differs from the nearest, one "path:
// recorded X, got Y" a line, at most 20; more says how many were left out.
func (m *Miss) Diffs() (diffs []string, more int) { return m.miss.Diffs, m.miss.More }

// String prints the request that missed, the nearest recorded one and how
// they differ, credentials masked.
func (m *Miss) String() string {
	return "no recorded request matches " + m.Method + " " + redact.Text(m.Target) + "; " + m.miss.String()
}

// RequestFrom reads a request made in a test into a Request, for Find and
// Explain. Its body is read and put back.
func RequestFrom(req *http.Request) Request {
	r := Request{Method: req.Method, Header: req.Header.Clone()}
	if req.URL != nil {
		r.URL = req.URL.String()
	}
	if r.Header == nil {
		r.Header = http.Header{}
	}
	if req.Body != nil && req.Body != http.NoBody {
		r.Body, _ = io.ReadAll(req.Body)
		req.Body.Close()
		req.Body = io.NopCloser(bytes.NewReader(r.Body))
	}
	return r
}
