// Package engine is the reference engine's domain: the transcript and its
// typed mutations, thoughts and their routing, tools, permissions and globs,
// harness events, validation and the redaction policy, over the traffic model.
package engine
