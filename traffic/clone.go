package traffic

import (
	"encoding/json"
	"maps"
	"slices"
)

// Clone returns a deep copy of m: its blocks, their raw bytes and extras
// are its own, so changing the copy never changes m.
func (m Message) Clone() Message {
	m.Blocks = cloneBlocks(m.Blocks)
	m.Extra = cloneExtra(m.Extra)
	return m
}

// Clone returns a deep copy of b.
func (b Block) Clone() Block {
	b.Signature = slices.Clone(b.Signature)
	b.Data = slices.Clone(b.Data)
	b.EncryptedContent = slices.Clone(b.EncryptedContent)
	b.Source = slices.Clone(b.Source)
	b.Input = slices.Clone(b.Input)
	b.ResultRaw = slices.Clone(b.ResultRaw)
	b.Raw = slices.Clone(b.Raw)
	b.Content = cloneBlocks(b.Content)
	b.Extra = cloneExtra(b.Extra)
	return b
}

func cloneBlocks(bs []Block) []Block {
	if bs == nil {
		return nil
	}
	out := make([]Block, len(bs))
	for i, b := range bs {
		out[i] = b.Clone()
	}
	return out
}

func cloneExtra(e map[string]json.RawMessage) map[string]json.RawMessage {
	if e == nil {
		return nil
	}
	out := maps.Clone(e)
	for k, v := range out {
		out[k] = slices.Clone(v)
	}
	return out
}
