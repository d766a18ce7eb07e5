package gemini

import (
	"encoding/base64"
	"encoding/json"
	"testing"
)

func TestGemEnforcing(t *testing.T) {
	for model, want := range map[string]bool{
		"gemini-3-pro-preview":                  true,
		"gemini-3.1-pro-preview-customtools":    true,
		"models/gemini-3-flash-preview":         true,
		"publishers/google/models/gemini-3-pro": true,
		"gemini-flash-latest":                   true,
		"gemini-2.5-pro":                        false,
		"gemini-2.0-flash":                      false,
		"gemini-3-pro-image-preview":            false,
		"gemini-pro":                            false,
		"gemma-3-27b-it":                        false,
		"":                                      false,
	} {
		if got := isEnforcing(model); got != want {
			t.Errorf("isEnforcing(%q) = %t, want %t", model, got, want)
		}
	}
}

func TestGemSigDummyAndDecoding(t *testing.T) {
	cases := []struct {
		raw          string
		dummy, valid bool
	}{
		{`"context_engineering_is_the_way_to_go"`, true, true},
		{`"skip_thought_signature_validator"`, true, true},
		{`"Y29udGV4dF9lbmdpbmVlcmluZ19pc190aGVfd2F5X3RvX2dv"`, true, true}, // base64 of the first, as pydantic-ai sends it
		{`"` + sigOf("skip_thought_signature_validator") + `"`, true, true},
		{`"c2lnLWE="`, false, true},
		{`"c2lnLWE"`, false, true},
		{`"sig a!"`, false, false},
	}
	for _, tc := range cases {
		s := newSignature(json.RawMessage(tc.raw))
		if s.dummy != tc.dummy || (s.err == nil) != tc.valid {
			t.Errorf("%s: dummy %t err %v, want dummy %t valid %t", tc.raw, s.dummy, s.err, tc.dummy, tc.valid)
		}
	}
	// The same bytes in either alphabet, padded or not, share a key.
	keys := []string{}
	for _, raw := range []string{`"++//Pg=="`, `"--__Pg"`, `"++//Pg"`} {
		keys = append(keys, newSignature(json.RawMessage(raw)).key)
	}
	if keys[0] != keys[1] || keys[1] != keys[2] {
		t.Errorf("keys differ: %q", keys)
	}
}

func TestGemCancelProblem(t *testing.T) {
	for resp, bad := range map[string]bool{
		`{"error":"[Operation Cancelled] Reason: User cancelled the operation."}`: false,
		`{"output":"3 files"}`:                   false,
		`{"result":"Tool call was cancelled"}`:   true,
		`{"output":"Permission denied by user"}`: true,
		`{}`:                                     true,
		`null`:                                   true,
		``:                                       true,
	} {
		if got := cancelProblem([]byte(resp)) != ""; got != bad {
			t.Errorf("%s: flagged %t, want %t", resp, got, bad)
		}
	}
}

func sigOf(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
