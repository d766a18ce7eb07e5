// Package cassette reads every recording format llmtck knows and writes go-vcr
// v2 cassettes.
package cassette

import (
	"fmt"
	"io"
	"net/http"
	"os"
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
)

// Formats lists every format in the order Detect tries them, for help texts
// and flag validation.
var Formats = []Format{FormatGoVCRv1, FormatGoVCRv2, FormatVCRPy, FormatRubyVCR, FormatHTTPRR, FormatHAR, FormatJSONL}

// MaxSize is the largest input Load and Parse accept, in bytes.
const MaxSize = 256 << 20

// Cassette is a recording: the HTTP interactions of one file, in order.
type Cassette struct {
	Path         string
	Format       Format
	Interactions []*Interaction
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
	// event's arrival offset from the response headers, so replay can
	// reproduce timing. It is written under `llmtck_event_offsets`, a key
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
		s = s[:300] + "…"
	}
	return s
}

// Load reads the file at path, refusing files larger than MaxSize, and parses
// it with Parse.
func Load(path string) (*Cassette, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &Error{File: path, Msg: oneLine(errText(err)), cause: err}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, &Error{File: path, Msg: oneLine(errText(err)), cause: err}
	}
	if st.IsDir() {
		return nil, errorf(path, 0, "is a directory, expected a recording file")
	}
	if st.Size() > MaxSize {
		return nil, tooBig(path, st.Size())
	}
	data, err := readLimited(f, st.Size())
	if err != nil {
		return nil, &Error{File: path, Msg: oneLine(errText(err)), cause: err}
	}
	if len(data) > MaxSize {
		return nil, tooBig(path, int64(len(data)))
	}
	return Parse(path, data)
}

// readLimited reads r to the end but at most MaxSize+1 bytes, into a buffer
// sized from the expected size so a 50 MB file is not copied while growing.
func readLimited(r io.Reader, size int64) ([]byte, error) {
	data := make([]byte, 0, size+1)
	for {
		if len(data) > MaxSize {
			return data, nil
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := r.Read(data[len(data):min(cap(data), MaxSize+1)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func tooBig(file string, n int64) *Error {
	return errorf(file, 0, "file is %d bytes, more than the %d MiB limit", n, MaxSize>>20)
}

// errText drops the path an *os.PathError repeats, since Error names the file.
func errText(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}

// Parse reads a recording in any known format, detected from data alone.
// name is used in errors and as the cassette's Path.
func Parse(name string, data []byte) (*Cassette, error) {
	if len(data) > MaxSize {
		return nil, tooBig(name, int64(len(data)))
	}
	// llmtck's own layout has a fast reader; anything it does not recognise
	// goes the general way.
	if ins, ok := parseFast(data); ok {
		return finish(name, FormatGoVCRv1, ins)
	}
	f, doc, err := detect(name, data)
	if err != nil {
		return nil, err
	}
	return parseDetected(name, data, f, doc)
}

// ParseAs reads data as format f without detection, for `import --from`.
func ParseAs(name string, data []byte, f Format) (*Cassette, error) {
	if len(data) > MaxSize {
		return nil, tooBig(name, int64(len(data)))
	}
	switch f {
	case FormatHTTPRR, FormatHAR, FormatJSONL:
		return parseDetected(name, data, f, nil)
	case FormatGoVCRv1, FormatGoVCRv2, FormatVCRPy, FormatRubyVCR:
		if f == FormatGoVCRv1 {
			if ins, ok := parseFast(data); ok {
				return finish(name, f, ins)
			}
		}
		if err := checkText(name, data); err != nil {
			return nil, err
		}
		doc, err := parseYAML(name, data)
		if err != nil {
			return nil, err
		}
		return parseDetected(name, data, f, doc)
	}
	return nil, errorf(name, 0, "unknown format %q, expected one of %s", f, formatList())
}

func formatList() string {
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}

// parseDetected runs the reader for f. doc is the parsed YAML document for
// the YAML formats.
func parseDetected(name string, data []byte, f Format, doc *yamlDoc) (*Cassette, error) {
	var (
		ins []*Interaction
		err error
	)
	switch f {
	case FormatHTTPRR:
		ins, err = readHTTPRR(name, data)
	case FormatHAR:
		ins, err = readHAR(name, data)
	case FormatJSONL:
		ins, err = readJSONL(name, data)
	case FormatGoVCRv1, FormatGoVCRv2:
		ins, err = doc.readGoVCR()
	case FormatVCRPy:
		ins, err = doc.readVCRPy()
	case FormatRubyVCR:
		ins, err = doc.readRubyVCR()
	default:
		return nil, errorf(name, 0, "unknown format %q, expected one of %s", f, formatList())
	}
	if err != nil {
		return nil, err
	}
	return finish(name, f, ins)
}
