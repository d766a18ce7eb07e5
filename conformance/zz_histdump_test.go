package conformance

import (
	"fmt"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/internal/corpus"
)

func TestZZThreads(t *testing.T) {
	var out strings.Builder
	for _, path := range corpus.Files(t) {
		tr, err := LoadTraffic(path, "")
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "%s\n   threads: %v\n", corpus.Name(t, path), Threads(tr))
		var cs []*Check
		for _, c := range Checks() {
			if strings.HasPrefix(c.ID, "HIST") || strings.Contains(c.ID, "EPH") {
				cs = append(cs, c)
			}
		}
		for _, f := range Judge(tr, cs) {
			fmt.Fprintf(&out, "   %s\n%s", f, f.Diff)
		}
	}
	t.Log("\n" + out.String())
}
