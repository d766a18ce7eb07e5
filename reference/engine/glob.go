package engine

import (
	"fmt"
	"path"
	"regexp"
	"strings"
)

// A glob is a permission pattern (docs/reference-model.md, seed 004:
// `{"path": "src/**"}`), matched as the seed's library, minimatch, matches with
// its default options:
//
//   - "*", "?" and "[...]" stay within one path segment; "**" as a whole
//     segment crosses segments, and at the end of a pattern it needs at
//     least one (so "src/**" matches "src/a" and "src/" but not "src");
//   - no wildcard matches a segment that starts with a dot ("src/**" does
//     not match "src/.env"); a pattern segment that starts with a dot does;
//   - {a,b} alternatives are expanded first; matching is case-sensitive;
//   - "a/*" also matches "a/b/" (a trailing slash on the value).
//
// Unlike minimatch, the value is first cleaned as a slash-separated path
// ("src/./a" is "src/a", "src/../x" is "x"), and a value that climbs out of
// where it starts ("../x", "src/../../x") or holds a NUL byte matches no
// pattern at all, not even "**": a tool given "src/../secrets/.env" reads
// secrets/.env, and that is what is judged.
type glob struct {
	alternatives [][]string // the pattern's brace expansions, split into segments
}

func compileGlob(pattern string) (*glob, error) {
	if pattern == "" {
		return nil, fmt.Errorf("empty pattern")
	}
	g := &glob{}
	for _, alt := range expandBraces(pattern) {
		segs := strings.Split(alt, "/")
		for _, s := range segs {
			if s != "**" && strings.Contains(s, "**") {
				continue // "a**b" is two stars in one segment, as minimatch reads it
			}
			if _, err := segmentRegexp(s); err != nil {
				return nil, fmt.Errorf("%q: %v", pattern, err)
			}
		}
		g.alternatives = append(g.alternatives, segs)
	}
	return g, nil
}

// match reports whether value, cleaned, matches one of the alternatives.
func (g *glob) match(value string) bool {
	v, ok := cleanValue(value)
	if !ok {
		return false
	}
	fs := strings.Split(v, "/")
	for _, ps := range g.alternatives {
		if matchSegments(ps, fs) {
			return true
		}
	}
	return false
}

// cleanValue cleans v as a slash-separated path, keeping a trailing slash;
// ok is false when v climbs above its start or holds a NUL.
func cleanValue(v string) (string, bool) {
	if v == "" {
		return "", true
	}
	if strings.IndexByte(v, 0) >= 0 {
		return "", false
	}
	c := path.Clean(v)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", false
	}
	if strings.HasSuffix(v, "/") && c != "/" {
		c += "/"
	}
	return c, true
}

// hidden reports whether a value segment is one no wildcard matches.
func hidden(seg string) bool { return strings.HasPrefix(seg, ".") }

// matchSegments matches value segments fs against pattern segments ps. A
// table of results by position keeps patterns with several "**" linear in
// practice.
func matchSegments(ps, fs []string) bool {
	memo := map[[2]int]bool{}
	var at func(i, j int) bool
	at = func(i, j int) bool {
		key := [2]int{i, j}
		if r, ok := memo[key]; ok {
			return r
		}
		r := step(ps, fs, i, j, at)
		memo[key] = r
		return r
	}
	return at(0, 0)
}

func step(ps, fs []string, i, j int, at func(i, j int) bool) bool {
	if i == len(ps) {
		// The value may have one empty segment left: "a/*" matches "a/b/".
		return j == len(fs) || j == len(fs)-1 && fs[j] == ""
	}
	if ps[i] == "**" {
		for i+1 < len(ps) && ps[i+1] == "**" {
			i++
		}
		if i == len(ps)-1 { // "**" at the end takes at least one segment, none hidden
			if j == len(fs) {
				return false
			}
			for _, f := range fs[j:] {
				if hidden(f) {
					return false
				}
			}
			return true
		}
		for k := j; k <= len(fs); k++ {
			if at(i+1, k) {
				return true
			}
			if k < len(fs) && hidden(fs[k]) {
				return false
			}
		}
		return false
	}
	if j == len(fs) || !matchSegment(ps[i], fs[j]) {
		return false
	}
	return at(i+1, j+1)
}

// matchSegment matches one value segment against one pattern segment.
func matchSegment(p, f string) bool {
	if !strings.ContainsAny(p, "*?[") {
		return p == f
	}
	if f == "" || hidden(f) && !strings.HasPrefix(p, ".") {
		return false
	}
	re, err := segmentRegexp(p)
	return err == nil && re.MatchString(f)
}

// segmentRegexp translates a pattern segment: "*" any run, "?" one
// character, "[...]" a class ("[!...]" negated, as "[^...]").
func segmentRegexp(p string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '[':
			end := strings.IndexByte(p[i+1:], ']')
			if end < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := p[i+1 : i+1+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += end + 1
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}

// expandBraces expands the first {a,b} group of p and, recursively, the
// rest: "src/{a,b}/*.go" is "src/a/*.go" and "src/b/*.go". A group without
// a comma, or unbalanced braces, is literal text.
func expandBraces(p string) []string {
	depth, open := 0, -1
	comma := false
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '{':
			if depth == 0 {
				open, comma = i, false
			}
			depth++
		case ',':
			if depth == 1 {
				comma = true
			}
		case '}':
			if depth == 0 {
				continue
			}
			depth--
			if depth == 0 && comma {
				var out []string
				for _, alt := range splitTopLevel(p[open+1 : i]) {
					out = append(out, expandBraces(p[:open]+alt+p[i+1:])...)
				}
				return out
			}
		}
	}
	return []string{p}
}

// splitTopLevel splits s at the commas outside nested braces.
func splitTopLevel(s string) []string {
	var out []string
	depth, from := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[from:i])
				from = i + 1
			}
		}
	}
	return append(out, s[from:])
}
