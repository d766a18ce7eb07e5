package cassette

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/llmtck/llmtck/internal/rawjson"
)

const httprrMagic = "httprr trace v1\n"

// Detect names the format of a recording from its content alone.
func Detect(data []byte) (Format, error) {
	if len(data) > MaxSize {
		return "", tooBig("", int64(len(data)))
	}
	if isGzip(data) {
		inner, err := gunzipFile("", data)
		if err != nil {
			return "", err
		}
		return Detect(inner)
	}
	if _, _, ok := parseFast(data); ok {
		return FormatGoVCRv1, nil
	}
	f, _, err := detect("", data)
	return f, err
}

// detect names the format and, for YAML formats, returns the parsed document
// so Parse does not parse twice.
func detect(name string, data []byte) (Format, *yamlDoc, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return "", nil, errorf(name, 0, "empty file, expected a recording (go-vcr, vcrpy or Ruby VCR YAML, httprr, HAR or JSONL)")
	}
	if bytes.HasPrefix(data, []byte(httprrMagic)) {
		return FormatHTTPRR, nil, nil
	}
	if bytes.HasPrefix(data, []byte("httprr trace ")) {
		line, _, _ := strings.Cut(string(data[:min(len(data), 40)]), "\n")
		return "", nil, errorf(name, 1, "unsupported httprr header %q, expected %q", line, strings.TrimSpace(httprrMagic))
	}
	if err := checkText(name, data); err != nil {
		return "", nil, err
	}
	if f, ok, err := detectJSON(name, data); ok || err != nil {
		return f, nil, err
	}
	doc, err := parseYAML(name, data)
	if err != nil {
		return "", nil, err
	}
	f, err := doc.detect()
	return f, doc, err
}

// checkText rejects binary input before a text parser sees it: a NUL byte or
// bytes that are not UTF-8 mean this is not a YAML, JSON or JSONL recording.
func checkText(name string, data []byte) error {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return errorf(name, lineAt(data, i), "binary data (a NUL byte), expected a text recording")
	}
	if !utf8.Valid(data) {
		i := invalidUTF8(data)
		return errorf(name, lineAt(data, i), "binary data (bytes that are not UTF-8), expected a text recording")
	}
	return nil
}

func invalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(data)
}

// lineAt returns the 1-based line holding byte offset i.
func lineAt(data []byte, i int) int {
	return bytes.Count(data[:min(i, len(data))], []byte{'\n'}) + 1
}

// detectJSON recognises the JSON formats: HAR (an object with log.entries),
// nock (an array of definitions with a scope) and JSONL (one stream event
// per line). A file whose first line is a whole stream event is JSONL even
// if a later line is broken, so the JSONL reader can name that line. A file
// opening a JSON object with "log" near the top is HAR, so the HAR reader
// can report its syntax error. Any other JSON document is not a recording:
// a config.json beside the cassettes is not one call with status 200.
func detectJSON(name string, data []byte) (Format, bool, error) {
	t := bytes.TrimLeft(trimBOM(data), " \t\r\n")
	if len(t) == 0 || t[0] != '{' && t[0] != '[' {
		return "", false, nil
	}
	if t[0] == '[' {
		if isNock(t) {
			return FormatNock, true, nil
		}
		if rawjson.Valid(t) {
			return "", false, notARecording(name, t)
		}
		return "", false, nil
	}
	first, _, _ := bytes.Cut(t, []byte{'\n'})
	first = bytes.TrimSpace(first)
	switch {
	case rawjson.Valid(t) && isHAR(t):
		return FormatHAR, true, nil
	case rawjson.Valid(first) && isCassetteJSON(first), rawjson.Valid(t) && isCassetteJSON(t):
		return "", false, nil // a cassette written as JSON, which YAML reads
	case rawjson.Valid(first) && isStreamEvent(first):
		return FormatJSONL, true, nil
	case rawjson.Valid(t):
		return "", false, notARecording(name, t)
	case rawjson.Valid(first):
		return "", false, notARecording(name, first)
	}
	head := t[:min(len(t), 4096)]
	if bytes.Contains(head, []byte(`"log"`)) {
		return FormatHAR, true, nil
	}
	return "", false, nil
}

// streamEventKeys are keys one of which every provider's stream event has
// at its top: Anthropic and Responses events' type, Chat chunks' object and
// choices, Gemini's candidates, Bedrock ConverseStream's event names.
var streamEventKeys = []string{"type", "object", "choices", "candidates", "usageMetadata",
	"messageStart", "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStop", "metadata"}

func isStreamEvent(line []byte) bool {
	var top map[string]json.RawMessage
	if json.Unmarshal(line, &top) != nil {
		return false
	}
	for _, k := range streamEventKeys {
		if _, ok := top[k]; ok {
			return true
		}
	}
	return false
}

func isNock(data []byte) bool {
	var defs []struct {
		Scope  string `json:"scope"`
		Method string `json:"method"`
	}
	if json.Unmarshal(data, &defs) != nil || len(defs) == 0 {
		return false
	}
	return defs[0].Scope != "" && defs[0].Method != ""
}

// notARecording explains a JSON document that is no recording format.
func notARecording(name string, doc []byte) *Error {
	what := "a JSON " + kindOfJSON(doc)
	var top map[string]json.RawMessage
	if json.Unmarshal(doc, &top) == nil {
		keys := make([]string, 0, len(top))
		for k := range top {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if len(keys) > 6 {
			keys = append(keys[:6], "…")
		}
		what += " with keys " + strings.Join(keys, ", ")
	}
	return errorf(name, 1, "not a recording: %s; expected a cassette (go-vcr, vcrpy, Ruby VCR, httpmock YAML), HAR, nock JSON, httprr or JSONL stream events", what)
}

func kindOfJSON(doc []byte) string {
	switch doc[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	}
	return "value"
}

func trimBOM(data []byte) []byte {
	return bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
}

func isHAR(data []byte) bool {
	var top struct {
		Log *struct {
			Entries json.RawMessage `json:"entries"`
		} `json:"log"`
	}
	if json.Unmarshal(data, &top) != nil || top.Log == nil {
		return false
	}
	return len(top.Log.Entries) > 0
}

func isCassetteJSON(line []byte) bool {
	var top struct {
		Interactions     json.RawMessage `json:"interactions"`
		HTTPInteractions json.RawMessage `json:"http_interactions"`
	}
	return json.Unmarshal(line, &top) == nil && (top.Interactions != nil || top.HTTPInteractions != nil)
}

// detect tells the YAML formats apart by their shape: Ruby VCR has
// `http_interactions`; go-vcr v3/v4 says `version: 2`; vcrpy requests have
// `uri` where go-vcr's have `url`, and vcrpy statuses are mappings.
func (d *yamlDoc) detect() (Format, error) {
	fs, order, err := d.fields(d.root, "the cassette")
	if err != nil {
		return "", err
	}
	if _, ok := fs["http_interactions"]; ok {
		return FormatRubyVCR, nil
	}
	_, reqs := fs["requests"]
	if _, resps := fs["responses"]; reqs && resps {
		return FormatVCRLists, nil
	}
	_, when := fs["when"]
	if _, then := fs["then"]; when && then {
		return FormatHTTPMock, nil
	}
	if _, ok := fs["interactions"]; !ok {
		return "", d.errorf(d.root, "expected a mapping with `interactions` (go-vcr, vcrpy) or `http_interactions` (Ruby VCR) at the top, found %s", keyList(order))
	}
	version := d.version()
	switch version {
	case "2":
		return FormatGoVCRv2, nil
	case "", "1":
	default:
		return "", d.errorf(fs["version"].value, "unsupported cassette version %q, expected 1 (go-vcr v1/v2, vcrpy) or 2 (go-vcr v3/v4)", clip(version, 20))
	}
	list, err := d.items(fs["interactions"].value, "`interactions`")
	if err != nil {
		return "", err
	}
	if len(list) == 0 {
		if version == "1" {
			return FormatGoVCRv1, nil
		}
		return FormatVCRPy, nil
	}
	first, err := d.node(list[0])
	if err != nil {
		return "", err
	}
	ifs, _, err := d.fields(first, "interaction 0")
	if err != nil {
		return "", err
	}
	if f, ok := ifs["request"]; ok {
		rfs, _, err := d.fields(f.value, "interaction 0 request")
		if err != nil {
			return "", err
		}
		if _, ok := rfs["uri"]; ok {
			return FormatVCRPy, nil
		}
		if _, ok := rfs["url"]; ok {
			return FormatGoVCRv1, nil
		}
	}
	if f, ok := ifs["response"]; ok {
		rfs, _, err := d.fields(f.value, "interaction 0 response")
		if err != nil {
			return "", err
		}
		if s, ok := rfs["status"]; ok {
			if n, err := d.node(s.value); err == nil && n.Kind == yaml.MappingNode {
				return FormatVCRPy, nil
			}
		}
	}
	return FormatGoVCRv1, nil
}

func keyList(keys []string) string {
	if len(keys) == 0 {
		return "no keys"
	}
	if len(keys) > 5 {
		keys = append(keys[:5:5], "…")
	}
	return "keys " + strings.Join(keys, ", ")
}
