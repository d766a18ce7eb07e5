package proxy

import "github.com/llmtck/llmtck/cassette"

// Match is cassette.Matcher.
//
// Deprecated: use cassette.Matcher; this alias goes after one release.
type Match = cassette.Matcher

// DefaultMatchOn is cassette.DefaultMatchOn.
//
// Deprecated: use cassette.DefaultMatchOn; this goes after one release.
var DefaultMatchOn = cassette.DefaultMatchOn

// ParseMatch is cassette.ParseMatcher.
//
// Deprecated: use cassette.ParseMatcher; this goes after one release.
func ParseMatch(on string, ignore []string) (cassette.Matcher, error) {
	return cassette.ParseMatcher(on, ignore)
}
