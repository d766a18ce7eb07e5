package explore

import (
	"encoding/json"
	"strings"
)

// Shrink reduces f while fails still holds of it: it drops turns, steps,
// faults, events (compaction, schema retry, stops, cancelled tools) and
// tool calls, and shortens texts, keeping each change that still fails,
// until no change does. fails must be deterministic enough to be asked
// again; steps counts the candidates it was asked about.
func Shrink(f *File, fails func(*File) bool) (smallest *File, steps int) {
	cur := f.clone()
	for changed := true; changed; {
		changed = false
		for _, cand := range Candidates(cur) {
			if _, err := cand.Scenario(); err != nil {
				continue // not a valid scenario: not a smaller one
			}
			steps++
			if fails(cand) {
				cur, changed = cand, true
				break
			}
		}
	}
	return cur, steps
}

// Size is the number of turns, steps and faults of f: what shrinking
// reduces.
func Size(f *File) (turns, steps, faults int) {
	for _, t := range f.Turns {
		steps += len(t.Steps)
		for _, s := range t.Steps {
			faults += len(s.Faults)
		}
	}
	return len(f.Turns), steps, faults
}

// Candidates are the one-change reductions of f, biggest first; some may
// not be valid scenarios (Shrink skips those).
func Candidates(f *File) []*File {
	var out []*File
	edit := func(fn func(c *File)) {
		c := f.clone()
		fn(c)
		out = append(out, c)
	}
	for i := range f.Turns {
		if len(f.Turns) > 1 {
			edit(func(c *File) {
				c.Turns = append(c.Turns[:i], c.Turns[i+1:]...)
				if len(c.Turns) > 0 {
					c.Turns[0].Compact = ""
				}
			})
		}
	}
	for i, t := range f.Turns {
		for j := range t.Steps {
			if len(t.Steps) > 1 && t.Feedback == "" {
				edit(func(c *File) { c.Turns[i].Steps = append(c.Turns[i].Steps[:j], c.Turns[i].Steps[j+1:]...) })
			}
		}
		if t.Compact != "" {
			edit(func(c *File) { c.Turns[i].Compact = "" })
		}
		if t.Feedback != "" {
			edit(func(c *File) {
				c.Turns[i].Feedback, c.Turns[i].OutputSchema = "", nil
				c.Turns[i].Steps = c.Turns[i].Steps[len(c.Turns[i].Steps)-1:]
			})
		}
		for j, s := range t.Steps {
			for k := range s.Faults {
				edit(func(c *File) {
					c.Turns[i].Steps[j].Faults = append(c.Turns[i].Steps[j].Faults[:k], c.Turns[i].Steps[j].Faults[k+1:]...)
				})
			}
			if s.AbortAfter > 0 {
				edit(func(c *File) { c.Turns[i].Steps[j].AbortAfter = 0 })
			}
			for k, raw := range s.Content {
				if isCall(raw) && calls(s.Content) > 1 {
					edit(func(c *File) {
						c.Turns[i].Steps[j].Content = append(c.Turns[i].Steps[j].Content[:k], c.Turns[i].Steps[j].Content[k+1:]...)
					})
				}
			}
		}
		if len(t.Prompt) > 12 {
			edit(func(c *File) { c.Turns[i].Prompt = shorten(t.Prompt) })
		}
	}
	if len(f.System) > 12 {
		edit(func(c *File) { c.System = shorten(f.System) })
	}
	return out
}

// isCall reports a content item that is one tool call (every wire but
// Chat Completions, whose one message holds its calls).
func isCall(raw json.RawMessage) bool {
	s := string(raw)
	return strings.Contains(s, `"tool_use"`) || strings.Contains(s, `"toolUse"`) || strings.Contains(s, `"functionCall"`) || strings.Contains(s, `"function_call"`)
}

func calls(content []json.RawMessage) int {
	n := 0
	for _, c := range content {
		if isCall(c) {
			n++
		}
	}
	return n
}

// shorten keeps the first half of s's words (at least one).
func shorten(s string) string {
	w := strings.Fields(s)
	return strings.Join(w[:max(1, len(w)/2)], " ")
}
