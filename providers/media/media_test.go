package media_test

import (
	"strings"
	"testing"

	"github.com/llmtck/llmtck/providers"
	"github.com/llmtck/llmtck/providers/media"
	"github.com/llmtck/llmtck/traffic"
)

const (
	png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg=="
	pdf = "JVBERi0xLjQKJcOkw7zDtsOfCjIgMCBvYmo="
)

// The wire form each codec writes for a neutral image and document.
var wireForm = map[traffic.Wire][]string{
	traffic.WireAnthropic: {
		`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` + png + `"}}`,
		`{"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"` + pdf + `"}}`},
	traffic.WireOpenAI: {
		`{"type":"image_url","image_url":{"url":"data:image/png;base64,` + png + `"}}`,
		`{"type":"file","file":{"filename":"document.pdf","file_data":"data:application/pdf;base64,` + pdf + `"}}`},
	traffic.WireResponses: {
		`{"type":"input_image","image_url":"data:image/png;base64,` + png + `"}`,
		`{"type":"input_file","filename":"document.pdf","file_data":"data:application/pdf;base64,` + pdf + `"}`},
	traffic.WireGemini: {
		`{"inlineData":{"mimeType":"image/png","data":"` + png + `"}}`,
		`{"inlineData":{"mimeType":"application/pdf","data":"` + pdf + `"}}`},
	traffic.WireBedrock: {
		`{"image":{"format":"png","source":{"bytes":"` + png + `"}}}`,
		`{"document":{"format":"pdf","name":"document","source":{"bytes":"` + pdf + `"}}}`},
}

// Media parts are wire-neutral (docs/reference-model.md, seed 004): the
// same {mediaType, data} image and document, encoded by each of the five
// codecs, is written in that wire's own form, and decoded back by the same
// codec it reads as the same media type and data.
func TestNeutralMediaRoundTrip(t *testing.T) {
	for _, wire := range providers.Wires() {
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
			for _, want := range wireForm[wire] {
				if !strings.Contains(string(body), want) {
					t.Errorf("the body lacks %s:\n%s", want, body)
				}
			}
			if strings.Contains(string(body), `"mediaType"`) {
				t.Errorf("the neutral source leaked onto the wire:\n%s", body)
			}
			back, err := providers.For(wire).DecodeRequest(body)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range back.Messages {
				for _, b := range m.Blocks {
					if mt, data, ok := media.Of(b); ok {
						got = append(got, mt+":"+data)
					}
				}
			}
			if want := "image/png:" + png + " application/pdf:" + pdf; strings.Join(got, " ") != want {
				t.Errorf("decoded media %v, want %s", got, want)
			}
		})
	}
}

func TestDataURL(t *testing.T) {
	if mt, d, ok := media.ParseDataURL(media.DataURL("image/webp", "UklGR")); !ok || mt != "image/webp" || d != "UklGR" {
		t.Errorf("round trip: %s %s %v", mt, d, ok)
	}
	for _, bad := range []string{"https://x/a.png", "data:image/png,raw", "data:image/png;base64"} {
		if _, _, ok := media.ParseDataURL(bad); ok {
			t.Errorf("%q read as a base64 data URL", bad)
		}
	}
	if _, _, ok := media.Neutral([]byte(`{"mediaType":"image/png","data":"x","extra":1}`)); ok {
		t.Error("an object with more keys read as neutral")
	}
}

// FuzzOf: any source or raw member reads as media or not, never a panic,
// and what reads as a data URL writes back as the same URL.
func FuzzOf(f *testing.F) {
	f.Add([]byte(`{"type":"base64","media_type":"image/png","data":"x"}`), true)
	f.Add([]byte(`"data:image/png;base64,x"`), true)
	f.Add([]byte(`{"image":{"format":"png","source":{"bytes":"x"}}}`), false)
	f.Add([]byte(`{"mediaType":"a/b","data":""}`), true)
	f.Fuzz(func(t *testing.T, raw []byte, asSource bool) {
		b := traffic.Block{Type: traffic.BlockOther, Raw: raw}
		if asSource {
			b = traffic.Block{Type: traffic.BlockImage, Source: raw}
		}
		media.Of(b)
		if mt, d, ok := media.ParseDataURL(string(raw)); ok && media.DataURL(mt, d) != string(raw) {
			t.Fatalf("%q reads as %s %s", raw, mt, d)
		}
	})
}
