package redact

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// A credShape makes a random value of one real credential format. Values
// are generated, so no real secret is in this file; named shapes have no
// prefix and are found only under a credential-named JSON key, so they are
// tried in JSON only.
type credShape struct {
	name  string
	rule  string // the rule that must name it
	make  func(r *rand.Rand) string
	named string // the JSON key a prefixless value sits under
}

const (
	b62   = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b64u  = b62 + "-_"
	lower = "abcdef0123456789"
	alpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	aws32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
)

func pick(r *rand.Rand, set string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = set[r.IntN(len(set))]
	}
	return string(b)
}

func gen(parts ...any) func(r *rand.Rand) string {
	return func(r *rand.Rand) string {
		var b strings.Builder
		for i := 0; i < len(parts); i++ {
			switch p := parts[i].(type) {
			case string:
				b.WriteString(p)
			case int:
				b.WriteString(pick(r, parts[i+1].(string), p))
				i++
			}
		}
		return b.String()
	}
}

func pemKey(r *rand.Rand) string {
	raw := make([]byte, 600)
	for i := range raw {
		raw[i] = byte(r.IntN(256))
	}
	b := base64.StdEncoding.EncodeToString(raw)
	var lines []string
	for len(b) > 64 {
		lines, b = append(lines, b[:64]), b[64:]
	}
	return "-----BEGIN PRIVATE KEY-----\n" + strings.Join(append(lines, b), "\n") + "\n-----END PRIVATE KEY-----\n"
}

var credShapes = []credShape{
	{"anthropic", "anthropic-api-key", gen("sk-ant-api03-", 93, b64u, "AA"), ""},
	{"anthropic admin", "anthropic-admin-api-key", gen("sk-ant-admin01-", 93, b64u, "AA"), ""},
	{"openai project", "openai-api-key", gen("sk-proj-", 74, b64u, "T3BlbkFJ", 74, b64u), ""},
	{"openai service account", "openai-api-key", gen("sk-svcacct-", 74, b64u, "T3BlbkFJ", 74, b64u), ""},
	{"openai admin", "openai-api-key", gen("sk-admin-", 58, b64u, "T3BlbkFJ", 58, b64u), ""},
	{"openai legacy", "openai-api-key", gen("sk-", 20, b62, "T3BlbkFJ", 20, b62), ""},
	{"openrouter", "openrouter-api-key", gen("sk-or-v1-", 64, lower), ""},
	{"deepseek", "openai-api-key", gen("sk-", 32, lower), ""},
	{"google api key", "gcp-api-key", gen("AIzaSy", 33, b64u), ""},
	{"google oauth token", "gcp-oauth-access-token", gen("ya29.a0", 120, b64u), ""},
	{"google oauth client secret", "gcp-oauth-client-secret", gen("GOCSPX-", 28, b64u), ""},
	{"aws access key id", "aws-access-token", gen("AKIA", 4, aws32, "7", 11, aws32), ""},
	{"aws temporary key id", "aws-access-token", gen("ASIA", 4, aws32, "3", 11, aws32), ""},
	{"bedrock long-lived", "aws-amazon-bedrock-api-key-long-lived", func(r *rand.Rand) string {
		return "ABSK" + base64.StdEncoding.EncodeToString([]byte("BedrockAPIKey-"+pick(r, lower, 4)+"-at-"+pick(r, "0123456789", 12)+":"+pick(r, b62, 60)))
	}, ""},
	{"bedrock short-lived", "aws-amazon-bedrock-api-key-short-lived", func(r *rand.Rand) string {
		return "bedrock-api-key-" + base64.StdEncoding.EncodeToString([]byte("bedrock.amazonaws.com/?Action=CallWithBearerToken&X-Amz-Credential=ASIA"+pick(r, aws32, 16)+"&X-Amz-Signature="+pick(r, lower, 64)))
	}, ""},
	{"hugging face", "huggingface-access-token", gen("hf_", 34, alpha), ""},
	{"xai", "xai-api-key", gen("xai-", 80, b62), ""},
	{"perplexity", "perplexity-api-key", gen("pplx-", 48, b62), ""},
	{"replicate", "replicate-api-token", gen("r8_", 37, b62), ""},
	{"fireworks", "fireworks-api-key", gen("fw_", 24, b62), ""},
	{"groq", "groq-api-key", gen("gsk_", 52, b62), ""},
	{"nvidia", "nvidia-api-key", gen("nvapi-", 64, b64u), ""},
	{"cerebras", "cerebras-api-key", gen("csk-", 48, b62), ""},
	{"langsmith", "langsmith-api-key", gen("lsv2_pt_", 32, lower, "_", 10, lower), ""},
	{"tavily", "tavily-api-key", gen("tvly-", 32, b62), ""},
	{"github pat", "github-pat", gen("ghp_", 36, b62), ""},
	{"github fine-grained", "github-fine-grained-pat", gen("github_pat_11", 80, b62), ""},
	{"github oauth", "github-oauth", gen("gho_", 36, b62), ""},
	{"github app", "github-app-token", gen("ghs_", 36, b62), ""},
	{"gitlab", "gitlab-pat", gen("glpat-", 20, b64u), ""},
	{"slack bot", "slack-bot-token", gen("xoxb-", 12, "0123456789", "-", 13, "0123456789", "-", 24, b62), ""},
	{"slack user", "slack-user-token", gen("xoxp-", 12, "0123456789", "-", 13, "0123456789", "-", 24, b62), ""},
	{"stripe secret", "stripe-access-token", gen("sk_live_", 99, b62), ""},
	{"stripe restricted", "stripe-access-token", gen("rk_live_", 99, b62), ""},
	{"jwt", "jwt", func(r *rand.Rand) string {
		return "eyJhbGciOiJIUzI1NiJ9." + base64.RawURLEncoding.EncodeToString([]byte(`{"sub":"`+pick(r, b62, 20)+`"}`)) + "." + pick(r, b64u, 43)
	}, ""},
	{"pem private key", "private-key", pemKey, "pem"},
	{"google service account", "gcp-service-account", func(r *rand.Rand) string {
		return `{"type":"service_account","project_id":"p-` + pick(r, lower, 6) + `","private_key_id":"` + pick(r, lower, 40) + `","private_key":"` + strings.ReplaceAll(pemKey(r), "\n", `\n`) + `"}`
	}, "sa"},
	{"aws secret access key", "aws-secret-access-key", gen(40, b62+"/+"), "aws_secret_access_key"},
	{"mistral", "credential-field", gen(32, b62), "api_key"},
	{"cohere", "credential-field", gen(40, b62), "apiKey"},
	{"together", "credential-field", gen(64, lower), "token"},
	{"azure openai", "credential-field", gen(32, lower), "api-key"},
	{"client secret", "credential-field", gen(40, b64u), "client_secret"},
	{"password", "credential-field", gen(24, b62), "password"},
}

// inJSON is the shape's value as a JSON member of an object, or the
// object itself for a key file.
func (s credShape) inJSON(v string) string {
	switch s.named {
	case "":
		return `{"role":"user","content":"my key is ` + v + ` , keep it"}`
	case "pem":
		return `{"role":"user","content":"` + strings.ReplaceAll(v, "\n", `\n`) + `"}`
	case "sa":
		return v
	}
	return `{"` + s.named + `":"` + v + `","region":"eu"}`
}

// escaped is that JSON inside a JSON string, as a prompt quotes a file.
func escaped(j string) string {
	return `{"messages":[{"role":"user","content":"here is my config: ` + strings.ReplaceAll(strings.ReplaceAll(j, `\`, `\\`), `"`, `\"`) + `"}]}`
}

func gz(b []byte) []byte {
	var out bytes.Buffer
	w := gzip.NewWriter(&out)
	w.Write(b)
	w.Close()
	return out.Bytes()
}

// Every shape is caught in every place a value travels, named by its rule,
// by each of the three uses: the recorder's request scan and streamed
// response scan, XP-SECRET-001's (ScanBody/ScanAll), and redact's scrub,
// which leaves nothing the scanner finds.
func TestCredentialShapesCaughtEverywhere(t *testing.T) {
	if len(credShapes) < 40 {
		t.Fatalf("%d shapes; the table wants 40 or more", len(credShapes))
	}
	r := rand.New(rand.NewPCG(46, 44))
	for _, s := range credShapes {
		v := s.make(r)
		j := s.inJSON(v)
		places := map[string][]byte{
			"json body":             []byte(j),
			"escaped json body":     []byte(escaped(j)),
			"percent-encoded body":  []byte("payload=" + url.QueryEscape(j)),
			"gzipped json body":     gz([]byte(j)),
			"escaped slashes in js": []byte(strings.ReplaceAll(j, "/", `\/`)),
		}
		if s.named == "" {
			places["header"] = []byte("Bearer " + v)
			places["query"] = []byte("https://api.example.org/v1/chat?alt=sse&q=" + url.QueryEscape(v))
		}
		for where, data := range places {
			l := ScanBody("body", data)
			if l == nil {
				t.Errorf("%s in a %s: not caught", s.name, where)
				continue
			}
			if where != "gzipped json body" && l.Rule != s.rule && !(s.rule == "credential-field" || s.rule == "aws-secret-access-key") {
				t.Errorf("%s in a %s: rule %s, want %s", s.name, where, l.Rule, s.rule)
			}
			if strings.Contains(l.Error(), v[min(len(v)-1, 8):]) {
				t.Errorf("%s in a %s: the message shows the secret: %s", s.name, where, l.Error())
			}
			if where == "gzipped json body" {
				continue
			}
			scrubbed, n := Scrub(data)
			if n == 0 || ScanAll("body", scrubbed) != nil {
				t.Errorf("%s in a %s: redact left it (%d masked): %s", s.name, where, n, scrubbed)
			}
		}
		// A streamed response: the recorder's Scanner in pieces, then the
		// whole for the full rule set, as leakIn does.
		event := []byte("event: content_block_delta\ndata: {\"type\":\"text_delta\",\"text\":\"" + strings.ReplaceAll(strings.ReplaceAll(j, `\`, `\\`), `"`, `\"`) + "\"}\n\n")
		for _, step := range []int{1, 7, 64, len(event)} {
			sc := NewScanner("response.body")
			for i := 0; i < len(event); i += step {
				sc.Write(event[i:min(len(event), i+step)])
			}
			if sc.End() == nil && ScanNamed("response.body", event) == nil {
				t.Errorf("%s in a streamed response (pieces of %d): not caught", s.name, step)
			}
		}
	}
}

// The same value in a cassette is what redact masks and the check then
// passes: Policy.Call leaves nothing ScanAll finds.
func TestRedactCassetteLeavesNoShape(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, s := range credShapes {
		j := s.inJSON(s.make(r))
		url, req, resp := "https://x/v1/messages", []byte(escaped(j)), []byte(j)
		Default().Call(&url, http.Header{}, &req, http.Header{}, &resp)
		if l := ScanAll("request.body", req); l != nil {
			t.Errorf("%s: redact left %v", s.name, l)
		}
		if l := ScanAll("response.body", resp); l != nil {
			t.Errorf("%s: redact left %v", s.name, l)
		}
	}
}

// Placeholders of every wire's key shape, the fixtures SDKs and docs use,
// and prose: none is a credential, in any place.
var placeholders = []string{
	"AKIAIOSFODNN7EXAMPLE",
	"aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
	"AKIATESTTESTTESTTEST",
	"AKIATEST1234567890AB",
	"AKIAI44QH8DHBEXAMPLE",
	"AKIDEXAMPLE",
	"AKIAABCDEFGHIJKLMNOP",
	"ASIAFAKEFAKEFAKEFAKE",
	"sk-ant-api03-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
	"sk-ant-api03-your-api-key-here-0000000000000000000000",
	"sk-ant-admin01-REDACTED",
	"sk-proj-abc123abc123abc123abc123abc123abc123",
	"sk-1234567890abcdef1234567890abcdef",
	"sk-test-Ab3dEf5GhI7jKl9MnO1pQr3StU5vWx7YzA9bCd",
	"sk_test_4eC39HqLyjWDarjtT1zdp7dc",
	"sk-or-v1-0000000000000000000000000000000000000000000000000000000000000000",
	"hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
	"hf_ExampleTokenExampleTokenExampleToken",
	"xai-your-api-key-here-AbCdEf0123456789AbCdEf0123456789AbCd",
	"pplx-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
	"r8_000000000000000000000000000000000000",
	"fw_FAKEKEYFAKEKEY1234567890",
	"GOCSPX-placeholder-client-secret-1",
	"gsk_test_Ab3dEf5GhI7jKl9MnO1pQr3StU5vWx7YzA9bCd1EfG3hIj",
	"ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
	"ghp_000000000000000000000000000000000000",
	"xoxb-123456789012-123456789012-xxxxxxxxxxxxxxxxxxxxxxxx",
	"AIzaSyDUMMY-KEY-dummy-key-dummy-key-1234",
	"AIzaSyA-1234567890abcdefghijklmnopqrstu",
	"ABSKQmVkcm9ja0FQSUtleS1FWEFNUExF",
	`{"api_key":"your-mistral-api-key-goes-here"}`,
	`{"apiKey":"<COHERE_API_KEY>"}`,
	`{"token":"Hello","logprob":-0.31}`,
	`{"token":"${TOGETHER_API_KEY}"}`,
	`{"password":"changeme1234567890"}`,
	`{"secret":"0000000000000000000000"}`,
	`{"api-key":"sk-...XXXX"}`,
	`{"next_page_token":"eyJvbnMiOiIxMDA0MSIsImZjIjoiRXFFQkNtSkJUR3QwWDNaRlVGQXlWUzFXVUhsMlJuaHFlamRCTVdaR1lWOVFNRzlwYzAxVmJHeEdWbGt3WmtkU1NEZHRPVTlPYzFKVlFsYzRXVUpxWWtaZldteGhiVmRZYUdWSFV6ZHVWa05oY0hSR1kzRnVVbk0yWnpKbVpYQkJaRlpRTVMxVlp4SVhNRk5EYW1GT1pVSktOMUJhTlU5VlVIaEpWelp4VVRRYUlrRkdUVUZIUjNGVWNGazFUWFJFUVhSakxWWkNSR2h4Y25sMVFqUktaM1E0VG5jIn0"}`,
	`{"max_tokens":1024,"usage":{"input_tokens":12,"output_tokens":345}}`,
	"-----BEGIN PRIVATE KEY-----\\n<your private key>\\n-----END PRIVATE KEY-----",
	"-----BEGIN CERTIFICATE-----\\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJRTESMBAGA1UEChMJQmFsdGltb3JlMRMwEQYDVQQLEwpDeWJlclRydXN0\\n-----END CERTIFICATE-----",
	"use hf_hub_download from xai-org/grok-1 and the pplx-api docs; r8_ and fw_ prefixes",
	"we use sk-learn for the pipeline, Version 1.4",
}

func TestPlaceholdersAndProseAreNotCredentials(t *testing.T) {
	if len(placeholders) < 30 {
		t.Fatalf("%d placeholders; the table wants 30 or more", len(placeholders))
	}
	for _, p := range placeholders {
		for where, data := range map[string][]byte{
			"as is":        []byte(p),
			"json body":    []byte(`{"content":"` + strings.ReplaceAll(strings.ReplaceAll(p, `\`, `\\`), `"`, `\"`) + `"}`),
			"query":        []byte("https://x/v1?q=" + url.QueryEscape(p)),
			"gzipped body": gz([]byte(p)),
		} {
			if l := ScanBody("body", data); l != nil {
				t.Errorf("%q %s: called live: %v", p, where, l)
			}
		}
		sc := NewScanner("body")
		sc.Write([]byte(p))
		if l := sc.End(); l != nil {
			t.Errorf("%q: the Scanner calls it live: %v", p, l)
		}
	}
}
