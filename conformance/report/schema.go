package report

import _ "embed"

// Schema is the JSON Schema (draft 2020-12) of the JSON report, version 1:
// conformance/report/schema/report-v1.json in the repository.
//
//go:embed schema/report-v1.json
var Schema []byte
