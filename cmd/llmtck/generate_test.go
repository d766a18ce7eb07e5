package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/llmtck/llmtck/conformance/explore"
	"github.com/llmtck/llmtck/conformance/scenario"
)

// scenarios generate prints the scenario Explore plays for the seed, and
// replay --scenario serves that file: the official SDK, with its default
// retries, gets past the overload scripted before the first answer.
func TestScenariosGenerateAndReplayFile(t *testing.T) {
	var seed uint64
	var want *explore.File
	for s := uint64(1); ; s++ {
		f, err := explore.Generate("anthropic", s, explore.Options{Faults: []scenario.FaultKind{scenario.FaultOverloaded}})
		if err != nil {
			t.Fatal(err)
		}
		if st := f.Turns[0].Steps[0]; len(st.Faults) > 0 && len(st.Faults) <= 2 {
			seed, want = s, f
			break
		}
	}
	code, out, errOut := runCLI(t, "scenarios", "generate", "--wire", "anthropic", "--seed", strconv.FormatUint(seed, 10), "--faults", "overloaded")
	if code != 0 || out != string(want.JSON()) {
		t.Fatalf("exit %d (%s); printed\n%s\nwant\n%s", code, errOut, out, want.JSON())
	}
	if code, _, _ := runCLI(t, "scenarios", "generate", "--wire", "anthropic", "--faults", "gremlins"); code != 2 {
		t.Errorf("an unknown fault kind exited %d, want 2", code)
	}
	path := filepath.Join(t.TempDir(), "anthropic-"+strconv.FormatUint(seed, 10)+".json")
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	sc, err := want.Scenario()
	if err != nil {
		t.Fatal(err)
	}
	s := startServer(t, "replay", "--scenario", path)
	client := anthropic.NewClient(option.WithBaseURL(s.addr), option.WithAPIKey("sk-ant-test"))
	params := anthropic.MessageNewParams{
		Model: anthropic.Model(sc.Turns[0].Model), MaxTokens: int64(sc.MaxTokens),
		System:   []anthropic.TextBlockParam{{Text: sc.System}},
		Thinking: anthropic.ThinkingConfigParamOfEnabled(int64(sc.Thinking.BudgetTokens)),
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(sc.Turns[0].Prompt))},
	}
	for _, tool := range sc.Tools {
		var schema anthropic.ToolInputSchemaParam
		if err := json.Unmarshal(tool.InputSchema, &schema); err != nil {
			t.Fatal(err)
		}
		params.Tools = append(params.Tools, anthropic.ToolUnionParam{OfTool: &anthropic.ToolParam{
			Name: tool.Name, Description: anthropic.String(tool.Description), InputSchema: schema}})
	}
	resp, err := client.Messages.New(context.Background(), params)
	if err != nil {
		t.Fatalf("the SDK did not get past %d scripted overload(s): %v", len(want.Turns[0].Steps[0].Faults), err)
	}
	if len(resp.Content) == 0 {
		t.Fatal("an empty answer")
	}
}
