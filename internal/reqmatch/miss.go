package reqmatch

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/google/go-cmp/cmp"

	"github.com/llmtck/llmtck/internal/redact"
)

// MaxDiffs bounds the differences a miss lists.
const MaxDiffs = 20

// Recorded is a recorded request as Nearest compares it: Target of its URL
// with credentials masked, and the wire whose Volatile fields are left out.
type Recorded struct {
	Index                int // position in the cassette
	Method, Target, Wire string
	Body                 []byte
}

// Miss explains why no recorded request answers an incoming one.
type Miss struct {
	Nearest *Recorded // nil when the cassette has no request at all
	Diffs   []string  // "path: recorded X, got Y", at most MaxDiffs
	More    int       // differences left out
}

// String explains the miss with credentials masked: it goes to a 404 body
// and a log, and the request that missed carries the client's live key.
func (m *Miss) String() string {
	if m.Nearest == nil {
		return "the cassette holds no request to compare with"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "nearest recorded request: interaction %d (%s %s)", m.Nearest.Index, m.Nearest.Method, redact.Text(m.Nearest.Target))
	if len(m.Diffs) == 0 {
		b.WriteString("; it differs only in volatile fields or in how values are written")
	}
	for _, d := range m.Diffs {
		b.WriteString("\n  ")
		b.WriteString(redact.Text(d))
	}
	if m.More > 0 {
		fmt.Fprintf(&b, "\n  … and %d more differences", m.More)
	}
	return b.String()
}

// Nearest finds the recorded request closest to the incoming one: same
// method and path first, then the fewest differing JSON paths.
func Nearest(recorded []Recorded, method, target, wire string, body []byte) *Miss {
	got, _ := DecodeJSON(body)
	got = stripVolatile(wire, got)
	var best *Miss
	bestScore := -1
	for i := range recorded {
		e := &recorded[i]
		score := 0
		var diffs []string
		if e.Method != method {
			score += 1000
			diffs = append(diffs, fmt.Sprintf("method: recorded %s, got %s", e.Method, method))
		}
		if e.Target != target {
			score += 500
			diffs = append(diffs, fmt.Sprintf("path: recorded %s, got %s", e.Target, target))
		}
		if bestScore >= 0 && score > bestScore {
			continue
		}
		want, ok := DecodeJSON(e.Body)
		if ok && got != nil {
			d := jsonDiff(stripVolatile(e.Wire, want), got)
			score += len(d)
			diffs = append(diffs, d...)
		} else if string(e.Body) != string(body) {
			score += 100
			diffs = append(diffs, fmt.Sprintf("body: recorded %s, got %s", short(e.Body), short(body)))
		}
		if bestScore < 0 || score < bestScore {
			bestScore = score
			best = &Miss{Nearest: e, Diffs: diffs}
		}
	}
	if best == nil {
		return &Miss{}
	}
	if len(best.Diffs) > MaxDiffs {
		best.More = len(best.Diffs) - MaxDiffs
		best.Diffs = best.Diffs[:MaxDiffs]
	}
	return best
}

func stripVolatile(wire string, v any) any {
	for _, path := range Volatile(wire) {
		m, ok := v.(map[string]any)
		for i, key := range path {
			if !ok {
				break
			}
			if i == len(path)-1 {
				delete(m, key)
				break
			}
			m, ok = m[key].(map[string]any)
		}
	}
	return v
}

// jsonDiff lists the JSON paths where want and got differ, found with go-cmp.
func jsonDiff(want, got any) []string {
	var r pathReporter
	cmp.Equal(want, got, cmp.Reporter(&r))
	return r.diffs
}

// pathReporter is a go-cmp reporter that names each difference by its JSON
// path, as in "messages[1].content[0].text".
type pathReporter struct {
	path  cmp.Path
	diffs []string
}

func (r *pathReporter) PushStep(ps cmp.PathStep) { r.path = append(r.path, ps) }
func (r *pathReporter) PopStep()                 { r.path = r.path[:len(r.path)-1] }

func (r *pathReporter) Report(rs cmp.Result) {
	if rs.Equal() {
		return
	}
	var p strings.Builder
	for _, step := range r.path {
		switch s := step.(type) {
		case cmp.MapIndex:
			if p.Len() > 0 {
				p.WriteByte('.')
			}
			p.WriteString(s.Key().String())
		case cmp.SliceIndex:
			i, j := s.SplitKeys()
			if i < 0 {
				i = j
			}
			p.WriteString("[" + strconv.Itoa(i) + "]")
		}
	}
	path := p.String()
	if path == "" {
		path = "(body)"
	}
	vx, vy := r.path.Last().Values()
	r.diffs = append(r.diffs, fmt.Sprintf("%s: recorded %s, got %s", path, show(vx), show(vy)))
}

// show renders one side of a difference as short JSON.
func show(v reflect.Value) string {
	if !v.IsValid() {
		return "(nothing)"
	}
	b, err := json.Marshal(v.Interface())
	if err != nil {
		return fmt.Sprint(v.Interface())
	}
	return short(b)
}

// short masks credentials before it cuts, so a cut key is not left whole
// enough to use nor too short to be recognised.
func short(b []byte) string {
	const max = 80
	s := redact.Text(string(b))
	if len(s) > max {
		return s[:max] + "…"
	}
	return s
}
