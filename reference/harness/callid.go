package harness

import (
	"fmt"
	"strings"

	"github.com/llmtck/llmtck/traffic"
)

// LocalCallIDPrefix starts the ids the loop gives tool calls that arrived
// without one — Gemini often sends none. The transcript pairs results by
// id, so each call needs one; it is assigned once, when the reply arrives,
// and never changes. On the Gemini wire, where ids are optional, it is
// taken off again: the provider never sees an id it did not send. A
// starting transcript may use the prefix for calls of its own that had no
// id.
const LocalCallIDPrefix = "llmtck_local_"

// IsLocalCallID reports whether id was made up for a call that had none.
func IsLocalCallID(id string) bool { return strings.HasPrefix(id, LocalCallIDPrefix) }

// nameCalls gives every tool call of the reply that has no id a local one,
// unique in the run: "<prefix><run>-<iteration>-<n>". The blocks are
// copied, not changed in place.
func (r *Run) nameCalls(iteration int, msgs []traffic.Message) {
	n := 0
	for i := range msgs {
		copied := false
		for j, b := range msgs[i].Blocks {
			if b.Type != traffic.BlockToolCall || b.ID != "" {
				continue
			}
			if !copied {
				msgs[i].Blocks = append([]traffic.Block(nil), msgs[i].Blocks...)
				copied = true
			}
			msgs[i].Blocks[j].ID = fmt.Sprintf("%s%s-%d-%d", LocalCallIDPrefix, r.runID, iteration, n)
			n++
		}
	}
}
