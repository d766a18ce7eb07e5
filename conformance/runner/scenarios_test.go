package runner_test

import (
	"testing"

	"github.com/llmtck/llmtck/conformance/runner"
)

// The shards of N machines play every scenario once, and each shard is
// the same from run to run.
func TestShardSplitsEachOnce(t *testing.T) {
	all, err := runner.Bundled()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 2, 3, 4, 7} {
		seen := map[string]int{}
		nonEmpty := 0
		for k := 1; k <= n; k++ {
			part, err := runner.Shard(all, k, n)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := runner.Shard(all, k, n)
			if len(again) != len(part) {
				t.Errorf("shard %d/%d: %d then %d scenarios", k, n, len(part), len(again))
			}
			if len(part) > 0 {
				nonEmpty++
			}
			for _, s := range part {
				seen[s.Name]++
			}
		}
		for _, s := range all {
			if seen[s.Name] != 1 {
				t.Errorf("N=%d: %s played %d times", n, s.Name, seen[s.Name])
			}
		}
		if n <= 4 && nonEmpty != n {
			t.Errorf("N=%d: only %d shards hold a scenario", n, nonEmpty)
		}
	}
}

func TestParseShard(t *testing.T) {
	if k, n, err := runner.ParseShard("2/4"); err != nil || k != 2 || n != 4 {
		t.Errorf("2/4: %d %d %v", k, n, err)
	}
	for _, bad := range []string{"", "0/2", "3/2", "1/0", "a/b", "1/2/3", "1 /2", "+1/2"} {
		if _, _, err := runner.ParseShard(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
