package cassette

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Format names a recording format. Detect tells them apart by content only.
type Format string

// The formats Parse reads. Encode always writes FormatGoVCRv1.
const (
	FormatGoVCRv1 Format = "govcr-v1" // go-vcr v1/v2 YAML, `version: 1`
	FormatGoVCRv2 Format = "govcr-v2" // go-vcr v3/v4 YAML, `version: 2`
	FormatVCRPy   Format = "vcrpy"    // Python vcrpy YAML, including pydantic-ai's parsed_body
	FormatRubyVCR Format = "rubyvcr"  // Ruby VCR YAML (`http_interactions`)
	FormatHTTPRR  Format = "httprr"   // Go httprr trace v1
	FormatHAR     Format = "har"      // HAR 1.2 JSON
	FormatJSONL   Format = "jsonl"    // one JSON stream event per line, response only

	FormatVCRLists Format = "vcrpy-lists" // vcrpy mappings in parallel `requests:`/`responses:` lists (langchain-aws)
	FormatHTTPMock Format = "httpmock"    // httpmock YAML: one `when:`/`then:` document per call, path-only URLs (Rust's rig)
	FormatNock     Format = "nock"        // nock recordings: a JSON array of {scope, method, path, status, response, rawHeaders}
)

// Formats lists every format in the order Detect tries them, for help texts
// and flag validation.
var Formats = []Format{FormatGoVCRv1, FormatGoVCRv2, FormatVCRPy, FormatRubyVCR, FormatHTTPRR, FormatHAR, FormatJSONL,
	FormatVCRLists, FormatHTTPMock, FormatNock}

// MaxSize is the largest input Load and Parse accept, in bytes.
const MaxSize = 256 << 20

// Cassette is a recording: the HTTP interactions of one file, in order.
type Cassette struct {
	Path         string
	Format       Format
	Interactions []*Interaction
	// Ephemeral is content the recorded harness was told to send once and
	// never persist (a scenario's schema-retry feedback), kept under the
	// llmtck_ephemeral key so a later check can still judge it.
	Ephemeral []string
	// Torn is the number of bytes at the end of the file that were left
	// out: an interaction cut in the middle (a recorder killed while
	// writing it). The interactions before it are complete. Readers say so;
	// the next recorder of the file moves those bytes aside.
	Torn int64
}

// Interaction is one request and the response it got.
type Interaction struct {
	Request  Request
	Response Response
}

// Request is a recorded HTTP request. Header keys are canonical
// (http.CanonicalHeaderKey) and Header is never nil.
type Request struct {
	Method string // "" for response-only inputs (jsonl)
	URL    string
	Header http.Header
	// Body is decoded: gunzipped, base64-decoded, or, for a pydantic-ai
	// parsed_body mapping, the JSON it stands for with key order kept.
	Body []byte
}

// Response is a recorded HTTP response. Header keys are canonical and Header
// is never nil.
type Response struct {
	Status     int
	StatusText string // e.g. "200 OK", as go-vcr writes `status`
	Header     http.Header
	// Body is verbatim (after undoing a gzip or base64 transport encoding of
	// the recording); SSE text is kept exactly.
	Body     []byte
	Duration time.Duration
	// EventOffsets holds, for streamed bodies recorded by llmtck, each SSE
	// event's (or event-stream frame's) arrival offset from the response
	// headers, then the offset of the body's end, so replay can reproduce
	// timing. Recordings of older versions have no end offset. It is written under `llmtck_event_offsets`, a key
	// go-vcr ignores. Nil when unknown.
	EventOffsets []time.Duration
}

// Error is a problem with an input file: where it is and what was expected.
type Error struct {
	File  string
	Line  int // 1-based; 0 when the problem has no line
	Msg   string
	cause error
}

func (e *Error) Error() string {
	if e.File == "" {
		if e.Line > 0 {
			return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
		}
		return e.Msg
	}
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Unwrap returns the underlying error, such as fs.ErrNotExist from Load.
func (e *Error) Unwrap() error { return e.cause }

// errorf builds an *Error whose message stays on one line.
func errorf(file string, line int, format string, args ...any) *Error {
	return &Error{File: file, Line: line, Msg: oneLine(fmt.Sprintf(format, args...))}
}

// oneLine keeps a message on one line and short, since it may quote input.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = strings.ToValidUTF8(s[:300], "") + "…"
	}
	return s
}
