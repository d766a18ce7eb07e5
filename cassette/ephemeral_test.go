package cassette

import (
	"slices"
	"strings"
	"testing"
)

// Declared ephemeral content is written as a top-level list before
// `interactions`, loads in stock go-vcr, and comes back through both
// readers, awkward strings included.
func TestEphemeralRoundTrip(t *testing.T) {
	c := genCassette(2, 300)
	c.Ephemeral = []string{
		"Your answer was not valid JSON. Reply with a JSON object only.",
		"two\nlines", "'quoted' # not a comment", "- dash", "null", "", "\xff\xfe not utf-8", "emoji 😀",
	}
	data := string(roundTrip(t, c))
	want := "---\nversion: 1\nllmtck_ephemeral:\n- Your answer was not valid JSON. Reply with a JSON object only.\n- \"two\\nlines\"\n"
	if !strings.HasPrefix(data, want) {
		t.Errorf("layout:\n%.300s\nwant it to start with\n%s", data, want)
	}
	if !strings.Contains(data, "\ninteractions:\n- request:\n") {
		t.Errorf("interactions do not follow the list:\n%.600s", data)
	}
	// Without declarations nothing changes: the header is the appender's.
	c.Ephemeral = nil
	if data := string(encoded(t, c)); !strings.HasPrefix(data, header) || strings.Contains(data, ephemeralKey) {
		t.Errorf("a cassette without ephemeral content writes the key:\n%.200s", data)
	}
}

// The general reader finds the list wherever it is, in any YAML format, and
// tells what is wrong with a malformed one.
func TestEphemeralYAML(t *testing.T) {
	const ins = "interactions:\n- request:\n    url: https://api.anthropic.com/v1/messages\n    method: POST\n  response:\n    status: 200 OK\n    code: 200\n"
	for _, c := range []struct {
		name, data string
		want       []string
		err        string
	}{
		{"after interactions", "version: 1\n" + ins + "llmtck_ephemeral:\n- Reply in JSON.\n", []string{"Reply in JSON."}, ""},
		{"flow list", "version: 1\nllmtck_ephemeral: [a, 'b c']\n" + ins, []string{"a", "b c"}, ""},
		{"null", "version: 1\nllmtck_ephemeral:\n" + ins, nil, ""},
		{"empty", "version: 1\nllmtck_ephemeral: []\n" + ins, nil, ""},
		{"absent", "version: 1\n" + ins, nil, ""},
		{"vcrpy", "interactions:\n- request: {uri: x, method: POST}\n  response: {status: {code: 200}}\nllmtck_ephemeral: [x]\n", []string{"x"}, ""},
		{"a mapping", "version: 1\nllmtck_ephemeral: {a: b}\n" + ins, nil, "e.yaml:2: expected a sequence for `llmtck_ephemeral`, found a mapping"},
		{"a nested list", "version: 1\nllmtck_ephemeral:\n- ok\n- [x]\n" + ins, nil, "e.yaml:4: expected a string for `llmtck_ephemeral` item 1, found a sequence"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Parse("e.yaml", []byte(c.data))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				checkOneLineError(t, err, "e.yaml")
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Ephemeral, c.want) || (got.Ephemeral == nil) != (c.want == nil) {
				t.Errorf("Ephemeral = %q, want %q", got.Ephemeral, c.want)
			}
			if len(got.Interactions) != 1 {
				t.Errorf("%d interactions", len(got.Interactions))
			}
		})
	}
}
