package responses

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/llmtck/llmtck/traffic"
)

func TestDecodeResponseDocuments(t *testing.T) {
	cases := []struct {
		name   string
		status int
		body   string
		check  func(t *testing.T, r *traffic.Response)
	}{{
		name:   "error body with a numeric code",
		status: 429,
		body:   `{"error":{"message":"Rate limit reached","type":"requests","param":null,"code":429}}`,
		check: func(t *testing.T, r *traffic.Response) {
			want := &traffic.APIError{Type: "requests", Code: "429", Message: "Rate limit reached"}
			if diff := cmp.Diff(want, r.Error); diff != "" {
				t.Error(diff)
			}
		},
	}, {
		name:   "plain text gateway error",
		status: 502,
		body:   "<html>Bad gateway</html>\n",
		check: func(t *testing.T, r *traffic.Response) {
			if r.Error == nil || r.Error.Message != "<html>Bad gateway</html>" || r.Stream != nil {
				t.Errorf("%+v", r)
			}
		},
	}, {
		name:   "JSON error without an error object",
		status: 404,
		body:   `{"detail":"Not Found"}`,
		check: func(t *testing.T, r *traffic.Response) {
			if r.Error == nil || r.Error.Message != `{"detail":"Not Found"}` {
				t.Errorf("%+v", r.Error)
			}
		},
	}, {
		name:   "failed response document",
		status: 200,
		body: `{"id":"resp_1","object":"response","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},` +
			`"output":[{"type":"reasoning","id":"rs_1","summary":[]},"junk"],"error":null,` +
			`"usage":{"input_tokens":3,"output_tokens":5,"output_tokens_details":{"reasoning_tokens":5}}}`,
		check: func(t *testing.T, r *traffic.Response) {
			if r.Error != nil || r.Status != "incomplete" || r.StopReason != "max_output_tokens" || r.Usage.ReasoningTokens != 5 || len(r.Output) != 2 {
				t.Fatalf("%+v", r)
			}
			if b := r.Output[1].Blocks[0]; b.Type != traffic.BlockOther || string(b.Raw) != `"junk"` || b.Path != "output[1]" {
				t.Errorf("a malformed item is kept whole: %+v", b)
			}
		},
	}, {
		name:   "one stream event as a document",
		status: 200,
		body:   `{"type":"response.completed","sequence_number":0,"response":{"id":"resp_1","status":"completed","output":[]}}`,
		check: func(t *testing.T, r *traffic.Response) {
			if r.Stream == nil || !r.Stream.Complete || r.ID != "resp_1" {
				t.Errorf("%+v", r)
			}
		},
	}, {
		name:   "JSON lines with a broken line",
		status: 200,
		body:   "{\"type\":\"response.created\",\"response\":{\"id\":\"r\"}}\nnot json\n{\"type\":\"response.completed\",\"response\":{\"id\":\"r\",\"status\":\"completed\"}}\n",
		check: func(t *testing.T, r *traffic.Response) {
			st := r.Stream
			body := "{\"type\":\"response.created\",\"response\":{\"id\":\"r\"}}\nnot json\n"
			wantOffsets := []int{0, strings.Index(body, "not"), len(body)}
			if st == nil || st.Events != 3 || !cmp.Equal(st.Offsets, wantOffsets) || len(st.Issues) != 1 || st.Issues[0].Event != 1 || !st.Complete {
				t.Errorf("%+v", st)
			}
		},
	}, {
		name:   "padded data and misleading event names",
		status: 200,
		body: "event: message\ndata:   { \"type\" : \"response.created\", \"response\" : {\"id\":\"r\"}, \"sequence_number\" : 0 }  \n\n" +
			": keep-alive\n\n" +
			"event: response.created\ndata: {\"type\":\"response.completed\",\"sequence_number\":1,\"response\":{\"id\":\"r\",\"status\":\"completed\"}}\n\n",
		check: func(t *testing.T, r *traffic.Response) {
			if st := r.Stream; st == nil || st.Events != 2 || !st.Complete || len(st.Issues) != 0 || r.Status != "completed" {
				t.Errorf("%+v %+v", r, r.Stream)
			}
		},
	}, {
		name:   "stream that does not begin with response.created",
		status: 200,
		body:   "data: {\"type\":\"response.completed\",\"response\":{\"id\":\"r\",\"status\":\"completed\"}}\n\n",
		check: func(t *testing.T, r *traffic.Response) {
			if st := r.Stream; len(st.Issues) != 1 || st.Issues[0].Message != "stream begins with response.completed, not response.created" {
				t.Errorf("%+v", st.Issues)
			}
		},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := Codec{}.DecodeResponse(c.status, http.Header{}, []byte(c.body))
			if err != nil {
				t.Fatal(err)
			}
			if r.Wire != traffic.WireResponses {
				t.Errorf("wire %q", r.Wire)
			}
			c.check(t, r)
		})
	}
}

func TestDecodeResponseNothing(t *testing.T) {
	for body, want := range map[string]string{
		" \n":                "empty",
		"\x00\x01\x02binary": "neither JSON nor an event stream",
	} {
		if _, err := (Codec{}).DecodeResponse(200, nil, []byte(body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("DecodeResponse(%q) error = %v, want %q", body, err, want)
		}
	}
}
