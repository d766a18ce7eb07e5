package main

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The demo runs the whole pipeline in well under 10 s, one line per step,
// and ends with a clean report on the cassette it recorded.
func TestDemo(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	start := time.Now()
	if err := run(context.Background(), &out, "anthropic/thinking-tool-loop", dir); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	// A hang guard, not a speed bound (the demo takes well under a second;
	// the race detector on a loaded CI machine is slower).
	if d := time.Since(start); d > time.Minute {
		t.Errorf("the demo took %v", d)
	}
	cassette := filepath.Join(dir, "anthropic", "thinking-tool-loop.yaml")
	want := []string{
		`\[1/5\] simulator  anthropic/thinking-tool-loop \(3 steps\): anthropic http://127\.0\.0\.1:\d+\n`,
		`\[2/5\] recorder   anthropic http://127\.0\.0\.1:\d+ -> simulator, cassette ` + regexp.QuoteMeta(cassette) + `\n`,
		`\[3/5\] reference  playing 1 turn, streamed, through the recorder:\n`,
		`(      record POST 127\.0\.0\.1:\d+/v1/messages 200 stream \S+ tools=\d lint=- cassette=thinking-tool-loop\.yaml#\d\n){3}`,
		`\[3/5\] reference  3 of 3 steps served, 0 requests refused\n`,
		`\[4/5\] cassette   ` + regexp.QuoteMeta(cassette) + `, \d+ bytes\n`,
		`\[5/5\] check      clean: llmtck check ` + regexp.QuoteMeta(cassette) + `\n`,
		`      ` + regexp.QuoteMeta(cassette) + `  anthropic  3 interactions  status 200×3\n`,
		`      1 file, 3 interactions: 0 errors, 0 warnings\n`,
		`done in \S+: simulated, recorded, played, checked; offline\n`,
	}
	if re := regexp.MustCompile(`\A` + strings.Join(want, "")); !re.MatchString(out.String()) {
		t.Errorf("demo output:\n%s\nwant lines matching:\n%s", out.String(), strings.Join(want, "\n"))
	}
	// A rerun into the same folder starts a fresh cassette.
	out.Reset()
	if err := run(context.Background(), &out, "anthropic/thinking-tool-loop", dir); err != nil || !strings.Contains(out.String(), "1 file, 3 interactions: 0 errors") {
		t.Errorf("rerun: %v\n%s", err, out.String())
	}
}

func TestDemoUnknownScenario(t *testing.T) {
	err := run(context.Background(), &bytes.Buffer{}, "anthropic/no-such-thing", t.TempDir())
	if err == nil || !strings.Contains(err.Error(), `no scenario "anthropic/no-such-thing"`) {
		t.Errorf("err = %v", err)
	}
}
