package conformance_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance"
)

// A test package that defines its own -update flag, as many do: importing
// conformance must not make that panic with "flag redefined", and Golden
// honours it.
var update = flag.Bool("update", false, "rewrite golden files")

// A harness repository lints the cassettes its tests recorded: each check is
// a subtest named by its ID.
func TestExampleCheckCassette(t *testing.T) {
	conformance.CheckCassette(t, "../fixtures/checks/ANT-STREAM-002/pass-real-tool-stream.yaml")
}

// Golden pins what the harness sent, normalised; `go test -update` rewrites
// testdata/TestExampleGolden.golden after a deliberate change.
func TestExampleGolden(t *testing.T) {
	conformance.Golden(t, "../fixtures/checks/ANT-STREAM-002/pass-real-tool-stream.yaml")
}

// Golden writes its file when the test package's own -update flag is set.
func TestGoldenHonoursTheTestPackagesUpdateFlag(t *testing.T) {
	cassette, err := filepath.Abs("../fixtures/checks/ANT-STREAM-002/pass-real-tool-stream.yaml")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	defer func(was bool) { *update = was }(*update)
	*update = true
	conformance.Golden(t, cassette, conformance.GoldenFile("written.golden"))
	b, err := os.ReadFile(filepath.Join("testdata", "written.golden"))
	if err != nil || !strings.Contains(string(b), "POST /v1/messages (anthropic) -> 200") {
		t.Fatalf("with -update the golden file was not written: %v\n%s", err, b)
	}
}

// printer is a conformance.TB that prints what a test would report.
type printer struct{ name string }

func (p printer) Helper()                        {}
func (p printer) Name() string                   { return p.name }
func (p printer) Errorf(format string, a ...any) { fmt.Printf("FAIL: "+format+"\n", a...) }
func (p printer) Fatalf(format string, a ...any) { fmt.Printf("FATAL: "+format+"\n", a...) }
func (p printer) Logf(format string, a ...any)   {}

// What a failing check prints: the finding (interaction, severity, check,
// JSON path, message), the diff of what changed, and how to fix it. Here a
// harness echoed a thinking block whose signature lost a byte.
func ExampleCheckCassette() {
	t := printer{"TestRecordedTraffic"}
	conformance.CheckCassette(t, "../fixtures/checks/ANT-THINK-001/fail-signature-byte-flipped.i1.yaml",
		conformance.Only("ANT-THINK-001"))
	// Output:
	// FAIL: ../fixtures/checks/ANT-THINK-001/fail-signature-byte-flipped.i1.yaml: [1] error ANT-THINK-001 request.messages[1].content[0].signature: signature differs from the one interaction 0 (response content[0]) produced for this thinking text
	// first difference at byte 40 (want 736 bytes, got 736)
	// -want: …"B8ihhpykVCsPx6iMzwNTNP8dePIgYjNp"…
	// +got:  …"B8ihhpykVCsPx6iMAwNTNP8dePIgYjNp"…
	// how to fix (ANT-THINK-001): The signature covers the thinking text, so any edit is caught: trimming or re-wrapping the text, re-encoding the signature (URL-safe base64, re-quoting), rebuilding the block from a summary, or a proxy that converts between providers and back. Store the block exactly as the response produced it (for a stream: the concatenated thinking_delta text and signature_delta) and send those bytes back. The echo is tied to its origin by signature, else by thinking text, else by its place in the message that echoes a recorded response; the finding names the interaction that produced the original and shows the first differing byte. A block moved, reordered or left out is ANT-THINK-010's.
}

// A golden file that does not exist yet says how to write it.
func ExampleGolden() {
	t := printer{"TestWhatWeSend"}
	conformance.Golden(t, "../fixtures/checks/ANT-STREAM-002/pass-real-tool-stream.yaml",
		conformance.GoldenFile("not-written-yet.golden"))
	// Output:
	// FAIL: conformance.Golden: testdata/not-written-yet.golden does not exist yet; to write it, run
	// 	go test -run '^TestWhatWeSend$' -update
}

// Options print as the calls that made them, so a failure can name them.
func ExampleOption() {
	fmt.Println(conformance.Only("ANT-THINK-*"))
	fmt.Println(conformance.Gap("ANT-MSG-002", "we merge consecutive user turns next release"))
	fmt.Println(conformance.Capabilities("anthropic", "cancel"))
	// Output:
	// conformance.Only("ANT-THINK-*")
	// conformance.Gap("ANT-MSG-002", "we merge consecutive user turns next release")
	// conformance.Capabilities("anthropic", "cancel")
}
