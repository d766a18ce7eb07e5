// Package cassette reads every recording format llmtck knows, writes go-vcr
// v2 and v4 cassettes, and matches requests to recorded ones as `llmtck
// replay` does.
//
// Load and Parse read go-vcr v1–v4, vcrpy, Ruby VCR, httprr, HAR, nock,
// httpmock and JSONL recordings, the format told from the content alone
// (Detect); ParseAs reads one format without detection. Save and Encode
// write go-vcr v2 (`version: 1`), SaveV4 and EncodeV4 go-vcr v3/v4
// (`version: 2`); EncodeHeader and EncodeInteraction write a cassette one
// interaction at a time, a valid file after each.
//
// A Matcher says what a recorded request must share with one a test makes:
// DefaultMatcher compares method, path, query and the body as JSON, key
// order, whitespace and each wire's volatile fields (a per-session user id,
// a prompt cache key) aside. Its Match method has the shape of go-vcr's
// MatcherFunc; Find looks a request up in a cassette, and Explain says
// which recorded request is nearest to one that matched nothing and how
// the two differ.
//
// The readers of other tools' formats share this package with go-vcr's:
// detection and most of them read the same YAML tree with the same line
// numbers in their errors, and Load must read every format without the
// caller importing anything else.
package cassette
