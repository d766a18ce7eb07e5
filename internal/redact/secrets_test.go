package redact

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"strings"
	"testing"
)

// Keys of every shape the scanner knows, built from parts so this file is
// not itself flagged by secret scanners.
var liveKeys = map[string]string{
	"anthropic":        anthropicKey,
	"openai":           openaiKey,
	"google":           googleKey,
	"jwt":              jwt,
	"openrouter":       "sk-or-" + "v1-" + "3f9a0c1be27d4a85c6b01f3e9d72a5c48b1e06f7a3d95c2e84b7f01a6c3d9e5b",
	"groq":             "gsk" + "_" + "Ab3dEf5GhI7jKl9MnO1pQr3StU5vWx7YzA9bCd1EfG3hIj5KlM7n",
	"github":           "gh" + "p_" + "Ab3dEf5GhI7jKl9MnO1pQr3StU5vWx7YzA9b",
	"github-pat":       "github" + "_pat_" + "11AQ7ZK2Y0r4Xw9Lm3Pq_Tz8Vb1Nc6Hd5Jf2Gs7Ka0Wm4Re9Uy3Ii8Oo1Pp6Ll2Kk5Jj7Hh0Gg4Ff9Dd3Ss8Aa1Zz6",
	"slack":            "xox" + "b-" + "1234567890-9876543210-Ab3dEf5GhI7jKl9MnO1pQr3S",
	"google-oauth":     "ya" + "29." + "a0AfH6SMBx3k9LmP0aB7cD2eF4gH6iJ8kL0mN2oP4qR6sT8u",
	"aws-key-id":       "AK" + "IA" + "Q3EXAMPL7KEYID4X",
	"aws-temporary-id": "AS" + "IA" + "Q3ZZ7MPL7KEYID4X",
}

// awsSecret is an AWS secret access key: found only by the name it is given.
var awsSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "Q3x9LmP0aB"

// places puts a key everywhere a client or provider may: each returns the
// value to scan.
var places = map[string]func(key string) string{
	"bearer header":      func(k string) string { return "Bearer " + k },
	"query":              func(k string) string { return "https://x/v1/chat?alt=sse&api_key=" + k },
	"url path":           func(k string) string { return "https://x/v1/" + k + "/messages" },
	"json field":         func(k string) string { return `{"api_key":"` + k + `"}` },
	"after a json \\n":   func(k string) string { return `{"text":"line one\n` + k + ` is my key"}` },
	"after a json \\t":   func(k string) string { return `{"text":"key:\t` + k + `"}` },
	"after a json \\u":   func(k string) string { return `{"text":"\u0022` + k + `\u0022"}` },
	"after %22":          func(k string) string { return "q=%22" + k + "%22" },
	"after a dot":        func(k string) string { return "the key was." + k },
	"sse event":          func(k string) string { return "event: x\ndata: {\"k\":\"" + k + "\"}\n\n" },
	"yaml scalar":        func(k string) string { return "x-api-key:\n- " + k + "\n" },
	"prose with figures": func(k string) string { return "Version 1.4 of the pipeline uses " + k + " since 2024." },
}

// prose is text that resembles keys and must never stop a call being
// recorded.
var prose = []string{
	"we use sk-learn for the pipeline, Version 1.4",
	"sk-learn-classification-pipeline v2 (2024)",
	"the ASIA region grew 12% in Q3 2025",
	"AKIA is a name; AKIAIOSFODNN7EXAMPLE is AWS's documented example key",
	"GitHub tokens start with ghp_ and fine-grained ones with github_pat_",
	"Slack bot tokens look like xoxb-…, Groq keys like gsk_…",
	"OpenRouter keys are sk-or-v1- followed by 64 hex digits",
	"Google OAuth tokens begin with ya29.",
	"eyJ is what base64 of {\" looks like",
	"aws_secret_access_key = <your secret here>",
	"aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
	"EqQBCkYIBxgCKkBsk-Ab3dEf5GhI7jKl9MnO1pQr3StU5vWx7Yz",
	"Please summarise sk-ant docs, Version 3, and the AIza key format (39 characters).",
}

// Every key shape in every place is found, whole, in pieces and gzipped,
// and no piece of prose is: 0 leaks and 0 false refusals.
func TestSecretCorpus(t *testing.T) {
	leaks, refusals := 0, 0
	for name, key := range liveKeys {
		for where, place := range places {
			value := []byte(place(key))
			if l := ScanBody("body", value); l == nil || !strings.HasPrefix(key, l.Prefix[:2]) {
				t.Errorf("%s %s: not found (%v) in %q", name, where, l, value)
				leaks++
				continue
			}
			for split := 1; split < len(value); split += 3 {
				s := NewScanner("body")
				s.Write(value[:split])
				s.Write(value[split:])
				if s.End() == nil {
					t.Errorf("%s %s: missed when split at %d", name, where, split)
					leaks++
					break
				}
			}
			var gz bytes.Buffer
			zw := gzip.NewWriter(&gz)
			zw.Write(value)
			zw.Close()
			if ScanBody("body", gz.Bytes()) == nil {
				t.Errorf("%s %s: missed in a gzip-encoded body", name, where)
				leaks++
			}
			if masked := Text(string(value)); strings.Contains(masked, key[len(key)-12:]) {
				t.Errorf("%s %s: Text leaves the key: %q", name, where, masked)
				leaks++
			}
			if masked := TextBytes(value); bytes.Contains(masked, []byte(key[len(key)-12:])) {
				t.Errorf("%s %s: TextBytes leaves the key: %q", name, where, masked)
				leaks++
			}
		}
	}
	for _, v := range []string{"aws_secret_access_key = " + awsSecret, `{"SecretAccessKey":"` + awsSecret + `"}`, "AWS_SECRET_ACCESS_KEY=" + awsSecret} {
		if ScanBody("body", []byte(v)) == nil {
			t.Errorf("AWS secret access key missed in %q", v)
			leaks++
		}
	}
	for _, p := range prose {
		if l := ScanBody("body", []byte(p)); l != nil {
			t.Errorf("prose refused: %q: %v", p, l)
			refusals++
		}
		if Text(p) != p {
			t.Errorf("Text changed prose %q", p)
		}
		if b := []byte(p); &TextBytes(b)[0] != &b[0] {
			t.Errorf("TextBytes did not give prose %q back as it was", p)
		}
	}
	t.Logf("%d key shapes × %d places, %d prose lines: %d leaks, %d false refusals", len(liveKeys), len(places), len(prose), leaks, refusals)
}

func TestPlaceholder(t *testing.T) {
	for v, want := range map[string]bool{
		"test-api-key": true, "<ANTHROPIC_API_KEY>": true, "XXX": true, "**REDACTED**": true, Mask: true,
		"Bearer {{OPENAI_API_KEY}}": true, "sk-ant-api03-xxxxxxxxxxxxxxxx": true, "fake-key": true, "${GROQ_API_KEY}": true,
		anthropicKey: false, "Bearer " + openaiKey: false, "9f86d081884c7d659a2feaa0c55ad015": false,
	} {
		if got := Placeholder(v); got != want {
			t.Errorf("Placeholder(%q) = %v, want %v", v, got, want)
		}
	}
}

var _ = fmt.Sprint
