package cassette

import "bytes"

// interactionStart begins every interaction of llmtck's layout; a torn
// one may end anywhere after its "-".
var interactionStart = []byte("\n- request:\n")

// Busy stands, in a cassette of llmtck's layout, for the "- request:\n"
// that starts an interaction still being written in place (a long event
// stream recorded as it arrives). It ends the YAML document, so go-vcr and
// every YAML reader stop before the unfinished interaction, and it is as
// long as what it stands for, so the recorder writes the item's start over
// it once the interaction is whole.
const Busy = "...\n# busy\n"

// salvageBusy reads a cassette of llmtck's layout that ends in an
// interaction still marked Busy (a recorder killed while it streamed in
// place): the interactions before it are returned, with Torn set to the
// bytes from the mark on. It returns nil when data is not such a file.
func salvageBusy(name string, data []byte) *Cassette {
	if !bytes.HasPrefix(data, []byte(versionLine)) {
		return nil
	}
	i := bytes.Index(data, []byte("\n"+Busy))
	if i < 0 {
		return nil
	}
	cut := i + 1
	ins, eph, ok := parseFast(data[:cut])
	if !ok {
		return nil
	}
	c, err := finishFast(name, ins, eph)
	if err != nil {
		return nil
	}
	c.Torn = int64(len(data) - cut)
	return c
}

// salvage reads a cassette of llmtck's layout whose end was cut in the
// middle of an interaction (a recorder killed while appending a large
// one): the complete interactions before the cut are returned, with Torn
// set to the bytes left out. It returns nil when data is not such a file.
func salvage(name string, data []byte) *Cassette {
	if !bytes.HasPrefix(data, []byte(versionLine)) {
		return nil
	}
	for search := len(data); ; {
		i := bytes.LastIndex(data[:search], []byte("\n-"))
		if i < 0 {
			return nil
		}
		search = i
		cut := i + 1
		if ins, eph, ok := parseFast(data[:cut]); ok {
			c, err := finishFast(name, ins, eph)
			if err != nil {
				return nil
			}
			c.Torn = int64(len(data) - cut)
			return c
		}
	}
}
