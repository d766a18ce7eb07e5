package explore_test

import (
	"testing"

	"github.com/llmtck/llmtck/conformance/explore"
)

// BenchmarkGenerate is one generated scenario, parsed and validated as
// the simulator reads it.
func BenchmarkGenerate(b *testing.B) {
	for _, w := range explore.Wires {
		b.Run(string(w), func(b *testing.B) {
			for i := range b.N {
				f, err := explore.Generate(w, uint64(i%500), explore.Options{})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := f.Scenario(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
