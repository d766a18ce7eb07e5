package diff

import (
	"bytes"
	"encoding/json"
	"strings"
)

// JSON diffs two values as the indented JSON they encode to, line by line,
// in the "(-want +got)" form: a finding about wire items reads in the
// wire's own field names, not as Go values. It returns "" when they encode
// alike.
func JSON(want, got any) string {
	a, b := lines(want), lines(got)
	if slicesEqual(a, b) {
		return ""
	}
	var out strings.Builder
	out.WriteString("mismatch (-want +got):\n")
	for _, l := range lineDiff(a, b) {
		out.WriteString(l)
		out.WriteByte('\n')
	}
	return out.String()
}

func lines(v any) []string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return []string{err.Error()}
	}
	return strings.Split(strings.TrimRight(buf.String(), "\n"), "\n")
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// lineDiff is the shortest edit from a to b by longest common subsequence,
// each line marked " ", "-" or "+". Findings diff a few lines, so the
// quadratic table is small.
func lineDiff(a, b []string) []string {
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []string
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			out = append(out, "  "+a[i])
			i, j = i+1, j+1
		case lcs[i+1][j] >= lcs[i][j+1]:
			out = append(out, "- "+a[i])
			i++
		default:
			out = append(out, "+ "+b[j])
			j++
		}
	}
	for ; i < len(a); i++ {
		out = append(out, "- "+a[i])
	}
	for ; j < len(b); j++ {
		out = append(out, "+ "+b[j])
	}
	return out
}
