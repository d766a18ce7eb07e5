package main

import (
	"strings"

	"github.com/spf13/cobra"
)

// examples is the Examples section of each command's help, by its path
// below llmtck: a command a user cannot copy from its help is one they
// read source for.
var examples = map[string]string{
	"check": `  llmtck check cassettes/                       # every recording under the folder
  llmtck check --format junit cassettes/ > report.xml
  llmtck check --only 'ANT-THINK-*' run.yaml     # one family
  llmtck check --skip OAI-STREAM-001 run.yaml
  llmtck check --list --format json              # the catalogue
  cat run.yaml | llmtck check -                  # standard input`,
	"import": `  llmtck import tests/cassettes/ -o cassettes/   # vcrpy, HAR, httprr … detected by content
  llmtck import --from har session.har -o cassettes/
  llmtck import --to govcr-v4 recording.json -o -`,
	"view": `  llmtck view run.yaml -o run.html
  llmtck view cassettes/*.yaml -o report.html
  cat run.yaml | llmtck view - -o -`,
	"redact": `  llmtck redact --dry-run cassettes/            # count what would be masked
  llmtck redact run.yaml other.yaml`,
	"record": `  llmtck record --upstream https://api.anthropic.com --cassette run.yaml --listen 127.0.0.1:8089
  ANTHROPIC_BASE_URL=http://127.0.0.1:8089 python my_agent.py`,
	"proxy": `  llmtck proxy --print-ca                        # trust the CA once
  llmtck proxy --cassette-dir cassettes/ &
  HTTPS_PROXY=http://127.0.0.1:8080 node agent.js
  llmtck proxy --mode replay --check --cassette-dir cassettes/`,
	"replay": `  llmtck replay --cassette run.yaml --listen 127.0.0.1:8089
  llmtck replay --cassette run.yaml --check --timing recorded
  llmtck replay --scenario anthropic/cancelled-tool`,
	"scenarios": `  llmtck scenarios list
  llmtck scenarios show anthropic/cancelled-tool
  llmtck scenarios export out/`,
	"scenarios list":   `  llmtck scenarios list`,
	"scenarios show":   "  llmtck scenarios show anthropic/cancelled-tool\n  llmtck scenarios show --json anthropic/cancelled-tool > scenario.json",
	"scenarios export": `  llmtck scenarios export out/ && llmtck check out/`,
	"scenarios generate": `  llmtck scenarios generate --wire anthropic --seed 7 > anthropic-7.json
  llmtck scenarios generate --wire gemini --seed 3 --faults rate_limit
  llmtck replay --scenario anthropic-7.json`,
	"test": `  llmtck test -- python3 my_harness.py
  llmtck test --scenarios 'anthropic/*' --format junit --timeout 1m -- npm run conformance > report.xml
  llmtck test --shard 2/4 --format github -- ./harness
  llmtck test --explore 20 --seed 1 -- python3 my_harness.py`,
	"explain": `  llmtck explain ANT-THINK-001
  llmtck explain OAI-RSN-003 GEM-SIG-002`,
}

// addExamples gives each command below root its Examples section.
func addExamples(root *cobra.Command) {
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		path := strings.TrimPrefix(strings.TrimPrefix(c.CommandPath(), root.Name()), " ")
		if ex, ok := examples[path]; ok && c.Example == "" {
			c.Example = ex
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}
