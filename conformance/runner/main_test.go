package runner_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/llmtck/llmtck/conformance/scenario"
	"github.com/llmtck/llmtck/conformance/simulator"
	"github.com/llmtck/llmtck/reference"
	"github.com/llmtck/llmtck/traffic"
)

// harnessEnv, set, makes the test binary a harness: the reference engine
// (or the broken variant the variable names) playing the scenario the
// runner hands it, through the environment alone, as any harness would.
const harnessEnv = "LLMTCK_RUNNER_TEST_HARNESS"

func TestMain(m *testing.M) {
	if v, ok := os.LookupEnv(harnessEnv); ok {
		os.Exit(playAsHarness(reference.Variant(v)))
	}
	if os.Getenv("LLMTCK_SCENARIO") != "" {
		// Started by a runner without the harness variable: running the
		// tests here would start runners again, without end.
		fmt.Fprintln(os.Stderr, "runner.test: started as a harness without", harnessEnv)
		os.Exit(3)
	}
	os.Exit(m.Run())
}

// playAsHarness plays LLMTCK_SCENARIO against the base URLs in the
// environment.
func playAsHarness(v reference.Variant) int {
	data, err := os.ReadFile(os.Getenv("LLMTCK_SCENARIO"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	sc, err := scenario.Parse(os.Getenv("LLMTCK_SCENARIO_NAME"), data)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	urls := map[traffic.Wire]string{
		traffic.WireAnthropic: os.Getenv("ANTHROPIC_BASE_URL"),
		// The reference harness adds /v1 itself, as openai-go does not.
		traffic.WireOpenAI:    strings.TrimSuffix(os.Getenv("OPENAI_BASE_URL"), "/v1"),
		traffic.WireResponses: strings.TrimSuffix(os.Getenv("OPENAI_BASE_URL"), "/v1"),
		traffic.WireGemini:    os.Getenv("GOOGLE_GEMINI_BASE_URL"),
		traffic.WireBedrock:   os.Getenv("AWS_ENDPOINT_URL_BEDROCK_RUNTIME"),
	}
	s := simulator.NewSession(sc, urls, nil)
	if err := reference.Play(context.Background(), s, reference.Options{Stream: true, Variant: v}); err != nil {
		fmt.Fprintln(os.Stderr, "harness:", err)
		return 1
	}
	return 0
}

// asHarness is the command that runs this test binary as the reference
// harness, variant v ("" for the correct one).
func asHarness(t testing.TB, v reference.Variant) []string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(harnessEnv, string(v))
	return []string{exe}
}
