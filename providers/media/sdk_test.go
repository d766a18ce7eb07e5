package media_test

import (
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/openai/openai-go"
	"github.com/openai/openai-go/responses"
	"google.golang.org/genai"

	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/providers/media"
	"github.com/llmtck/llmtck/traffic"
)

// The media blocks each codec writes are the ones the provider's official
// SDK builds for the same image and document: each SDK block, as JSON,
// stands in the body our codec encodes. Bedrock is left out: go.mod has no
// Bedrock Runtime SDK (its JSON form is held by TestNeutralMediaRoundTrip).
func TestNeutralMediaAsTheSDKsWriteIt(t *testing.T) {
	raw, _ := base64.StdEncoding.DecodeString(png)
	rawPDF, _ := base64.StdEncoding.DecodeString(pdf)
	sdk := map[traffic.Wire][]any{
		traffic.WireAnthropic: {
			anthropic.NewImageBlockBase64("image/png", png),
			anthropic.NewDocumentBlock(anthropic.Base64PDFSourceParam{Data: pdf}),
		},
		traffic.WireOpenAI: {
			openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: media.DataURL("image/png", png)}),
			openai.FileContentPart(openai.ChatCompletionContentPartFileFileParam{FileData: openai.String(media.DataURL("application/pdf", pdf)), Filename: openai.String("document.pdf")}),
		},
		traffic.WireResponses: {
			responses.ResponseInputImageParam{ImageURL: openai.String(media.DataURL("image/png", png))},
			responses.ResponseInputFileParam{FileData: openai.String(media.DataURL("application/pdf", pdf)), Filename: openai.String("document.pdf")},
		},
		traffic.WireGemini: {
			genai.NewPartFromBytes(raw, "image/png"),
			genai.NewPartFromBytes(rawPDF, "application/pdf"),
		},
	}
	for wire, blocks := range sdk {
		t.Run(string(wire), func(t *testing.T) {
			req := &traffic.Request{Wire: wire, Model: "m", MaxTokens: 16, Messages: []traffic.Message{{Role: traffic.RoleUser, Blocks: []traffic.Block{
				{Type: traffic.BlockText, Text: "what is this?"},
				media.Block("image/png", png),
				media.Block("application/pdf", pdf),
			}}}}
			body, err := providers.For(wire).EncodeRequest(req)
			if err != nil {
				t.Fatal(err)
			}
			var doc any
			if err := json.Unmarshal(body, &doc); err != nil {
				t.Fatal(err)
			}
			ours := map[string]bool{}
			collect(doc, ours)
			for _, b := range blocks {
				data, err := json.Marshal(b)
				if err != nil {
					t.Fatal(err)
				}
				var v any
				json.Unmarshal(data, &v)
				if !ours[canonical(v)] {
					t.Errorf("the SDK's block %s is not in our body:\n%s", data, body)
				}
			}
		})
	}
}

// collect adds every JSON object of v, canonically encoded, to into.
func collect(v any, into map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		into[canonical(v)] = true
		for _, x := range v {
			collect(x, into)
		}
	case []any:
		for _, x := range v {
			collect(x, into)
		}
	}
}

// canonical encodes a decoded JSON value with sorted keys (encoding/json
// sorts map keys), so two objects equal as values encode alike.
func canonical(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
