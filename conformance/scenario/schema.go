package scenario

import _ "embed"

// Schema is the JSON Schema (draft 2020-12) of scenario files, which
// `llmtck scenarios show NAME --json` prints too:
// conformance/scenario/schema/scenario.json in the repository.
//
//go:embed schema/scenario.json
var Schema []byte
