// Package layout holds the test that keeps the arrows between llmtck's
// packages pointing one way, as DESIGN.md's layout table draws them.
package layout
