// Package conformance judges provider traffic against the wire rules: the
// check catalogue, its runner and reports, and the go test helpers for
// harness repositories.
package conformance
