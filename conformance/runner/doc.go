// Package runner plays conformance scenarios against a harness command in
// any language: per scenario it serves the simulated providers on loopback,
// runs the command with their base URLs in the environment variables the
// official SDKs read, and judges what the command sent.
package runner
