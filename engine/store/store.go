// Package store is deprecated: the message-store contract moved to
// reference/store. These aliases stay for one release.
package store

import refstore "github.com/llmtck/llmtck/reference/store"

// Candidate is refstore.Candidate.
//
// Deprecated: use github.com/llmtck/llmtck/reference/store.Candidate.
type Candidate = refstore.Candidate

// CandidateOptions is refstore.CandidateOptions.
//
// Deprecated: use github.com/llmtck/llmtck/reference/store.CandidateOptions.
type CandidateOptions = refstore.CandidateOptions

// Filter is refstore.Filter.
//
// Deprecated: use github.com/llmtck/llmtck/reference/store.Filter.
type Filter = refstore.Filter

// Message is refstore.Message.
//
// Deprecated: use github.com/llmtck/llmtck/reference/store.Message.
type Message = refstore.Message

// MessageStore is refstore.MessageStore.
//
// Deprecated: use github.com/llmtck/llmtck/reference/store.MessageStore.
type MessageStore = refstore.MessageStore

// PayloadStore is refstore.PayloadStore.
//
// Deprecated: use github.com/llmtck/llmtck/reference/store.PayloadStore.
type PayloadStore = refstore.PayloadStore

// Preview is refstore.Preview.
//
// Deprecated: use github.com/llmtck/llmtck/reference/store.Preview.
type Preview = refstore.Preview

// Type is refstore.Type.
//
// Deprecated: use github.com/llmtck/llmtck/reference/store.Type.
type Type = refstore.Type

// DefaultPreviewRunes is refstore.DefaultPreviewRunes.
//
// Deprecated: use github.com/llmtck/llmtck/reference/store.DefaultPreviewRunes.
const DefaultPreviewRunes = refstore.DefaultPreviewRunes

// TypeAssistant is refstore.TypeAssistant.
//
// Deprecated: use github.com/llmtck/llmtck/reference/store.TypeAssistant.
const TypeAssistant = refstore.TypeAssistant

// TypeTool is refstore.TypeTool.
//
// Deprecated: use github.com/llmtck/llmtck/reference/store.TypeTool.
const TypeTool = refstore.TypeTool

// TypeUser is refstore.TypeUser.
//
// Deprecated: use github.com/llmtck/llmtck/reference/store.TypeUser.
const TypeUser = refstore.TypeUser

// ErrInvalid is refstore.ErrInvalid.
//
// Deprecated: use github.com/llmtck/llmtck/reference/store.ErrInvalid.
var ErrInvalid = refstore.ErrInvalid

// ErrNotFound is refstore.ErrNotFound.
//
// Deprecated: use github.com/llmtck/llmtck/reference/store.ErrNotFound.
var ErrNotFound = refstore.ErrNotFound

// MaxTime is refstore.MaxTime.
//
// Deprecated: use github.com/llmtck/llmtck/reference/store.MaxTime.
var MaxTime = refstore.MaxTime

// MinTime is refstore.MinTime.
//
// Deprecated: use github.com/llmtck/llmtck/reference/store.MinTime.
var MinTime = refstore.MinTime

// Check is refstore.Check.
//
// Deprecated: use github.com/llmtck/llmtck/reference/store.Check.
var Check = refstore.Check

// CheckTime is refstore.CheckTime.
//
// Deprecated: use github.com/llmtck/llmtck/reference/store.CheckTime.
var CheckTime = refstore.CheckTime

// Clone is refstore.Clone.
//
// Deprecated: use github.com/llmtck/llmtck/reference/store.Clone.
var Clone = refstore.Clone

// Compare is refstore.Compare.
//
// Deprecated: use github.com/llmtck/llmtck/reference/store.Compare.
var Compare = refstore.Compare

// Matches is refstore.Matches.
//
// Deprecated: use github.com/llmtck/llmtck/reference/store.Matches.
var Matches = refstore.Matches

// NewCandidate is refstore.NewCandidate.
//
// Deprecated: use github.com/llmtck/llmtck/reference/store.NewCandidate.
var NewCandidate = refstore.NewCandidate

// NewPreview is refstore.NewPreview.
//
// Deprecated: use github.com/llmtck/llmtck/reference/store.NewPreview.
var NewPreview = refstore.NewPreview

// Newest is refstore.Newest.
//
// Deprecated: use github.com/llmtck/llmtck/reference/store.Newest.
var Newest = refstore.Newest
