package conformance

import "github.com/llmtck/llmtck/engine"

// Lint judges one live request against the traffic that came before it, as
// the replay server and recording proxy do: it runs the checks over history
// plus next and returns only the findings about next. next.Index must be
// len(history).
func Lint(history []engine.Exchange, next engine.Exchange, checks []*Check) []Finding {
	if checks == nil {
		checks = Checks()
	}
	exs := make([]engine.Exchange, 0, len(history)+1)
	exs = append(append(exs, history...), next)
	var out []Finding
	for _, f := range Judge(&Traffic{Exchanges: exs}, checks) {
		if f.Interaction == next.Index {
			out = append(out, f)
		}
	}
	return out
}
