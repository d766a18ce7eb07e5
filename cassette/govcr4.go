package cassette

import (
	"fmt"
	"io"
	"net/http"
	"net/url"

	"time"

	"go.yaml.in/yaml/v4"
)

// The go-vcr v3/v4 cassette layout (`version: 2`), field for field as
// gopkg.in/dnaeon/go-vcr.v4/pkg/cassette declares it. That package itself
// links net/http/httptest and testing, which the llmtck binary must not, so
// the layout is restated here and the tests load the result with go-vcr v4.
type v4Cassette struct {
	Version      int              `yaml:"version"`
	Interactions []*v4Interaction `yaml:"interactions"`
}

type v4Interaction struct {
	ID       int        `yaml:"id"`
	Request  v4Request  `yaml:"request"`
	Response v4Response `yaml:"response"`
}

type v4Request struct {
	Proto         string      `yaml:"proto"`
	ProtoMajor    int         `yaml:"proto_major"`
	ProtoMinor    int         `yaml:"proto_minor"`
	ContentLength int64       `yaml:"content_length"`
	Host          string      `yaml:"host"`
	Body          string      `yaml:"body,omitempty"`
	Headers       http.Header `yaml:"headers,omitempty"`
	URL           string      `yaml:"url"`
	Method        string      `yaml:"method"`
}

type v4Response struct {
	Proto         string        `yaml:"proto"`
	ProtoMajor    int           `yaml:"proto_major"`
	ProtoMinor    int           `yaml:"proto_minor"`
	ContentLength int64         `yaml:"content_length"`
	Body          string        `yaml:"body"`
	Headers       http.Header   `yaml:"headers"`
	Status        string        `yaml:"status"`
	Code          int           `yaml:"code"`
	Duration      time.Duration `yaml:"duration"`
}

// EncodeV4 writes c as a go-vcr v3/v4 cassette (`version: 2`), with the
// YAML library go-vcr v4 uses, so its recorder loads it. Bodies are
// carried as they are; what only llmtck reads (event offsets, ephemeral
// content) has no place in that format and is left out.
func EncodeV4(c *Cassette) ([]byte, error) {
	out := &v4Cassette{Version: 2, Interactions: make([]*v4Interaction, 0, len(c.Interactions))}
	for i, in := range c.Interactions {
		host := ""
		if u, err := url.Parse(in.Request.URL); err == nil {
			host = u.Host
		}
		status := in.Response.StatusText
		if status == "" {
			status = fmt.Sprintf("%d %s", in.Response.Status, http.StatusText(in.Response.Status))
		}
		out.Interactions = append(out.Interactions, &v4Interaction{
			ID: i,
			Request: v4Request{
				Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
				ContentLength: int64(len(in.Request.Body)),
				Host:          host,
				Body:          string(in.Request.Body),
				Headers:       in.Request.Header,
				URL:           in.Request.URL,
				Method:        in.Request.Method,
			},
			Response: v4Response{
				Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
				ContentLength: int64(len(in.Response.Body)),
				Body:          string(in.Response.Body),
				Headers:       headerOrEmpty(in.Response.Header),
				Status:        status,
				Code:          in.Response.Status,
				Duration:      in.Response.Duration,
			},
		})
	}
	data, err := yaml.Marshal(out)
	if err != nil {
		return nil, err
	}
	return append([]byte("---\n"), data...), nil
}

func headerOrEmpty(h http.Header) http.Header {
	if h == nil {
		return http.Header{}
	}
	return h
}

// SaveV4 writes c to path as a go-vcr v3/v4 cassette, atomically.
func SaveV4(path string, c *Cassette) error {
	data, err := EncodeV4(c)
	if err != nil {
		return err
	}
	return writeAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
