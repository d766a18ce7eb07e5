package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/llmtck/llmtck/cassette"
	"github.com/spf13/cobra"
)

// importFormats maps --from values to the reader formats they accept.
var importFormats = map[string][]cassette.Format{
	"govcr":   {cassette.Format("govcr-v1"), cassette.Format("govcr-v2")},
	"vcrpy":   {cassette.Format("vcrpy")},
	"rubyvcr": {cassette.Format("rubyvcr")},
	"httprr":  {cassette.Format("httprr")},
	"har":     {cassette.Format("har")},
	"jsonl":   {cassette.Format("jsonl")},
	// Rust's httpmock (rig), nock, and Polly.JS (HAR with its own habits).
	"httpmock": {cassette.FormatHTTPMock},
	"nock":     {cassette.FormatNock},
	"polly":    {cassette.FormatHAR},
}

func newImportCmd() *cobra.Command {
	var from, outDir, to string
	cmd := &cobra.Command{
		Use:   "import [--from auto|govcr|vcrpy|rubyvcr|httprr|har|jsonl|httpmock|nock|polly] SRC... -o DIR",
		Short: "Convert other tools' recordings into go-vcr v2 cassettes",
		Long: `import reads recordings made by go-vcr (any version), vcrpy (also langchain-aws's
requests:/responses: lists), Ruby VCR, httprr, HAR 1.2 and Polly.JS, nock, Rust's httpmock
YAML or JSONL event fixtures, gzip-compressed or not, and writes one go-vcr v2 cassette per
input into DIR, named after the input with a .yaml ending, with credentials masked as
llmtck redact masks them. Stock go-vcr v2.1.0 cassette.Load
reads the result; with --to govcr-v4 the cassettes are go-vcr v3/v4's (` + "`version: 2`" + `), which
stock go-vcr v4 loads and replays.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErr("import: no SRC given")
			}
			if outDir == "" {
				return usageErr("import: -o DIR is required")
			}
			if from != "auto" && importFormats[from] == nil {
				return usageErr("import: --from %q: want auto, govcr, vcrpy, rubyvcr, httprr, har, jsonl, httpmock, nock or polly", from)
			}
			save, encode := cassette.Save, func(c *cassette.Cassette) ([]byte, error) {
				var b bytes.Buffer
				err := c.Encode(&b)
				return b.Bytes(), err
			}
			switch to {
			case "govcr-v2":
			case "govcr-v4":
				save, encode = cassette.SaveV4, cassette.EncodeV4
			default:
				return usageErr("import: --to %q: want govcr-v2 or govcr-v4", to)
			}
			if outDir == "-" { // one cassette, to stdout
				if len(args) != 1 {
					return usageErr("import: -o - writes one cassette to stdout; %d inputs given", len(args))
				}
				c, err := loadAs(args[0], from)
				if err == nil {
					scrubCassette(c)
					var b []byte
					if b, err = encode(c); err == nil {
						_, err = cmd.OutOrStdout().Write(b)
					}
				}
				if err != nil {
					return &exitError{code: 2, err: err}
				}
				return nil
			}
			_, statErr := os.Stat(outDir)
			if err := os.MkdirAll(outDir, 0o755); err != nil {
				return usageErr("import: %v", err)
			}
			if os.IsNotExist(statErr) {
				// A run that imports nothing leaves no empty folder behind.
				defer func() {
					if entries, err := os.ReadDir(outDir); err == nil && len(entries) == 0 {
						os.Remove(outDir)
					}
				}()
			}
			written := map[string]string{}
			failed := 0
			for _, src := range args {
				dst := filepath.Join(outDir, cassetteName(src))
				if prev, dup := written[dst]; dup {
					fmt.Fprintf(cmd.ErrOrStderr(), "%s: skipped: %s already writes %s\n", src, prev, dst)
					failed++
					continue
				}
				c, err := loadAs(src, from)
				masked := 0
				if err == nil {
					masked = scrubCassette(c)
					err = save(dst, c)
				}
				if err != nil {
					fmt.Fprintln(cmd.ErrOrStderr(), err)
					failed++
					continue
				}
				written[dst] = src
				fmt.Fprintf(cmd.OutOrStdout(), "%s -> %s (%s, %s%s)\n", src, dst, c.Format, count(len(c.Interactions), "interaction"), maskedNote(masked))
			}
			if failed > 0 {
				return &exitError{code: 2, err: fmt.Errorf("import: %d of %d inputs not imported", failed, len(args))}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&from, "from", "auto", "input format: auto, govcr, vcrpy, rubyvcr, httprr, har, jsonl, httpmock, nock or polly")
	cmd.Flags().StringVarP(&outDir, "output", "o", "", "folder to write the cassettes into; - writes the one cassette to stdout")
	cmd.Flags().StringVar(&to, "to", "govcr-v2", "cassette layout to write: govcr-v2 (go-vcr v2, \"version: 1\") or govcr-v4 (go-vcr v3/v4, \"version: 2\")")
	completeValues(cmd, "to", "govcr-v2", "govcr-v4")
	completeValues(cmd, "from", "auto", "govcr", "vcrpy", "rubyvcr", "httprr", "har", "jsonl", "httpmock", "nock", "polly")
	return cmd
}

// maskedNote says how many credential values import masked, if any.
func maskedNote(n int) string {
	if n == 0 {
		return ""
	}
	return ", " + count(n, "credential value") + " masked"
}

// loadAs reads src, detecting its format or holding it to the --from choice.
func loadAs(src, from string) (*cassette.Cassette, error) {
	if from == "auto" {
		return cassette.Load(src)
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return nil, err
	}
	formats := importFormats[from]
	f := formats[0]
	if len(formats) > 1 { // go-vcr: the version inside decides which layout
		if got, err := cassette.Detect(data); err == nil {
			for _, g := range formats {
				if g == got {
					f = got
				}
			}
		}
	}
	return cassette.ParseAs(src, data, f)
}

// cassetteName is the output file name for src: its base name with the
// recording ending replaced by .yaml.
func cassetteName(src string) string {
	base := strings.TrimSuffix(filepath.Base(src), ".gz")
	for _, ext := range []string{".chunks.txt", ".yaml", ".yml", ".json", ".har", ".httprr", ".jsonl", ".ndjson", ".txt"} {
		if strings.HasSuffix(strings.ToLower(base), ext) {
			base = base[:len(base)-len(ext)]
			break
		}
	}
	return base + ".yaml"
}
