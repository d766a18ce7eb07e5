package cassette

import (
	"errors"
	"strings"
	"testing"
)

func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want Format
	}{
		{"llmtck header only", "---\nversion: 1\ninteractions:\n", FormatGoVCRv1},
		{"go-vcr v2 with url", "version: 1\ninteractions:\n- request:\n    url: http://x\n    method: GET\n  response:\n    status: 200 OK\n    code: 200\n", FormatGoVCRv1},
		{"go-vcr v4", "---\nversion: 2\ninteractions: []\n", FormatGoVCRv2},
		{"vcrpy with uri, version last", "interactions:\n- request:\n    uri: http://x\n    method: GET\n  response:\n    status: {code: 200, message: OK}\nversion: 1\n", FormatVCRPy},
		{"vcrpy status mapping only", "interactions:\n- request: {}\n  response:\n    status:\n      code: 204\n", FormatVCRPy},
		{"vcrpy empty, no version", "interactions: []\n", FormatVCRPy},
		{"ruby vcr", "---\nhttp_interactions: []\nrecorded_with: VCR 6.0.0\n", FormatRubyVCR},
		{"httprr", "httprr trace v1\n", FormatHTTPRR},
		{"har", `{"log":{"version":"1.2","entries":[]}}`, FormatHAR},
		{"har pretty", "{\n  \"log\": {\n    \"entries\": [\n    ]\n  }\n}\n", FormatHAR},
		{"har truncated", "{\n  \"log\": {\n    \"entries\": [\n", FormatHAR},
		{"jsonl", "{\"type\":\"a\"}\n{\"type\":\"b\"}\n", FormatJSONL},
		{"jsonl bad later line", "{\"type\":\"a\"}\n{\"type\":\n", FormatJSONL},
		{"jsonl with BOM and blank lines", "\ufeff\n{\"type\":\"a\"}\n\n{\"type\":\"b\"}", FormatJSONL},
		{"cassette as one-line JSON", `{"version":2,"interactions":[]}`, FormatGoVCRv2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Detect([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("Detect = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestDetectErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", "empty file"},
		{"blank", " \n\t\n", "empty file"},
		{"binary", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "line 3: binary data (a NUL byte)"},
		{"latin-1", "interactions:\n- caf\xe9\n", "line 2: binary data (bytes that are not UTF-8)"},
		{"scalar", "hello\n", "line 1: expected a mapping with `interactions` at the top, found the scalar \"hello\""},
		{"sequence", "- a\n- b\n", "line 1: expected a mapping with `interactions` at the top, found a sequence"},
		{"other mapping", "name: x\nsteps: []\n", "line 1: expected a mapping with `interactions` (go-vcr, vcrpy) or `http_interactions` (Ruby VCR) at the top, found keys name, steps"},
		{"version 3", "version: 3\ninteractions: []\n", "line 1: unsupported cassette version \"3\""},
		{"bad yaml", "interactions:\n  - a\n b: c\n", "line 2: invalid YAML: did not find expected key"},
		{"httprr v2", "httprr trace v2\n", "line 1: unsupported httprr header \"httprr trace v2\""},
		{"interactions not a list", "interactions: {a: 1}\n", "line 1: expected a sequence for `interactions`, found a mapping"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Detect([]byte(tc.in))
			if err == nil {
				t.Fatal("no error")
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%T is not *Error: %v", err, err)
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %q\nwant prefix %q", err, tc.want)
			}
		})
	}
}

func TestParseAs(t *testing.T) {
	data := readFile(t, "testdata/rubyvcr.yml")
	if _, err := ParseAs("r.yml", data, FormatRubyVCR); err != nil {
		t.Fatal(err)
	}
	// Forcing the wrong reader gives that reader's complaint, not a guess.
	_, err := ParseAs("r.yml", data, FormatGoVCRv2)
	if err == nil || !strings.HasPrefix(err.Error(), "r.yml:2: expected a mapping with `interactions` at the top") {
		t.Errorf("err = %v", err)
	}
	_, err = ParseAs("r.yml", data, FormatJSONL)
	if err == nil || !strings.HasPrefix(err.Error(), "r.yml:1: expected one JSON object per line (JSONL)") {
		t.Errorf("err = %v", err)
	}
	_, err = ParseAs("r.yml", data, "pcap")
	if err == nil || err.Error() != "r.yml: unknown format \"pcap\", expected auto, govcr or one of govcr-v1, govcr-v2, vcrpy, rubyvcr, httprr, har, jsonl, vcrpy-lists, httpmock, nock" {
		t.Errorf("err = %v", err)
	}
	enc := encoded(t, genCassette(2, 500))
	for _, f := range []Format{FormatGoVCRv1, FormatGoVCRv2} {
		c, err := ParseAs("g.yaml", enc, f)
		if err != nil || c.Format != f || len(c.Interactions) != 2 {
			t.Errorf("ParseAs %s: %v", f, err)
		}
	}
	// The CLI's --from names: auto, and govcr for either go-vcr version.
	for _, tc := range []struct {
		path string
		from Format
		want Format
	}{
		{"testdata/rubyvcr.yml", "auto", FormatRubyVCR},
		{"testdata/govcr_v1.yaml", "govcr", FormatGoVCRv1},
		{corpusFile(t, "TestExec_Gemini_ToolCall.yaml"), "govcr", FormatGoVCRv2},
	} {
		c, err := ParseAs(tc.path, readFile(t, tc.path), tc.from)
		if err != nil || c.Format != tc.want {
			t.Errorf("ParseAs(%s, %s) = %v, %v; want %s", tc.path, tc.from, c, err, tc.want)
		}
	}
}
