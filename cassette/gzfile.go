package cassette

import (
	"errors"

	"github.com/llmtck/llmtck/internal/inflate"
)

// maxInflatedFile is the largest a gzip-compressed recording may inflate
// to; a variable so tests can lower it.
var maxInflatedFile int64 = MaxSize

// gunzipFile undoes a gzip-compressed recording file (.yaml.gz, as
// langchain-aws writes). A file that inflates past MaxSize is refused
// without being held in memory, so a small bomb costs no more than a
// small file.
func gunzipFile(name string, data []byte) ([]byte, error) {
	out, err := inflate.Gzip(data, maxInflatedFile)
	if errors.Is(err, inflate.ErrTooLarge) {
		return nil, errorf(name, 0, "gzip-compressed file holds more than the %d MiB limit once decompressed", maxInflatedFile>>20)
	}
	if err != nil {
		return nil, errorf(name, 0, "gzip-compressed file: %v", err)
	}
	if isGzip(out) {
		return nil, errorf(name, 0, "gzip-compressed file holds another gzip stream; decompress it first")
	}
	return out, nil
}
