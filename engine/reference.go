package engine

import refengine "github.com/llmtck/llmtck/reference/engine"

// AssistantItems is refengine.AssistantItems.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.AssistantItems.
type AssistantItems = refengine.AssistantItems

// AssistantMessage is refengine.AssistantMessage.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.AssistantMessage.
type AssistantMessage = refengine.AssistantMessage

// AssistantTruncated is refengine.AssistantTruncated.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.AssistantTruncated.
type AssistantTruncated = refengine.AssistantTruncated

// Batch is refengine.Batch.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.Batch.
type Batch = refengine.Batch

// Compiled is refengine.Compiled.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.Compiled.
type Compiled = refengine.Compiled

// ContextReplace is refengine.ContextReplace.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ContextReplace.
type ContextReplace = refengine.ContextReplace

// ContextSummary is refengine.ContextSummary.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ContextSummary.
type ContextSummary = refengine.ContextSummary

// Decision is refengine.Decision.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.Decision.
type Decision = refengine.Decision

// Denial is refengine.Denial.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.Denial.
type Denial = refengine.Denial

// Dispatch is refengine.Dispatch.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.Dispatch.
type Dispatch = refengine.Dispatch

// EndEvent is refengine.EndEvent.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.EndEvent.
type EndEvent = refengine.EndEvent

// EndReason is refengine.EndReason.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.EndReason.
type EndReason = refengine.EndReason

// EphemeralEvent is refengine.EphemeralEvent.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.EphemeralEvent.
type EphemeralEvent = refengine.EphemeralEvent

// ErrorEvent is refengine.ErrorEvent.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ErrorEvent.
type ErrorEvent = refengine.ErrorEvent

// Event is refengine.Event.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.Event.
type Event = refengine.Event

// EventHeader is refengine.EventHeader.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.EventHeader.
type EventHeader = refengine.EventHeader

// EventType is refengine.EventType.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.EventType.
type EventType = refengine.EventType

// Experience is refengine.Experience.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.Experience.
type Experience = refengine.Experience

// ExperienceForget is refengine.ExperienceForget.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ExperienceForget.
type ExperienceForget = refengine.ExperienceForget

// ExperienceRemember is refengine.ExperienceRemember.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ExperienceRemember.
type ExperienceRemember = refengine.ExperienceRemember

// FileTime is refengine.FileTime.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.FileTime.
type FileTime = refengine.FileTime

// Identity is refengine.Identity.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.Identity.
type Identity = refengine.Identity

// MultimodalToolResult is refengine.MultimodalToolResult.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.MultimodalToolResult.
type MultimodalToolResult = refengine.MultimodalToolResult

// Mutation is refengine.Mutation.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.Mutation.
type Mutation = refengine.Mutation

// MutationError is refengine.MutationError.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.MutationError.
type MutationError = refengine.MutationError

// MutationKind is refengine.MutationKind.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.MutationKind.
type MutationKind = refengine.MutationKind

// Note is refengine.Note.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.Note.
type Note = refengine.Note

// PermissionGate is refengine.PermissionGate.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.PermissionGate.
type PermissionGate = refengine.PermissionGate

// PermissionResponse is refengine.PermissionResponse.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.PermissionResponse.
type PermissionResponse = refengine.PermissionResponse

// Permissions is refengine.Permissions.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.Permissions.
type Permissions = refengine.Permissions

// Phase is refengine.Phase.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.Phase.
type Phase = refengine.Phase

// Problem is refengine.Problem.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.Problem.
type Problem = refengine.Problem

// RawThought is refengine.RawThought.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.RawThought.
type RawThought = refengine.RawThought

// ReasoningEvent is refengine.ReasoningEvent.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ReasoningEvent.
type ReasoningEvent = refengine.ReasoningEvent

// RedactionPolicy is refengine.RedactionPolicy.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.RedactionPolicy.
type RedactionPolicy = refengine.RedactionPolicy

// RelayEvent is refengine.RelayEvent.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.RelayEvent.
type RelayEvent = refengine.RelayEvent

// ReplInputEvent is refengine.ReplInputEvent.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ReplInputEvent.
type ReplInputEvent = refengine.ReplInputEvent

// ReplOutputEvent is refengine.ReplOutputEvent.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ReplOutputEvent.
type ReplOutputEvent = refengine.ReplOutputEvent

// ReplProgressEvent is refengine.ReplProgressEvent.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ReplProgressEvent.
type ReplProgressEvent = refengine.ReplProgressEvent

// StartEvent is refengine.StartEvent.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.StartEvent.
type StartEvent = refengine.StartEvent

// TextEvent is refengine.TextEvent.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.TextEvent.
type TextEvent = refengine.TextEvent

// Thought is refengine.Thought.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.Thought.
type Thought = refengine.Thought

// ThoughtError is refengine.ThoughtError.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ThoughtError.
type ThoughtError = refengine.ThoughtError

// TokenUsage is refengine.TokenUsage.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.TokenUsage.
type TokenUsage = refengine.TokenUsage

// ToolCallEvent is refengine.ToolCallEvent.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ToolCallEvent.
type ToolCallEvent = refengine.ToolCallEvent

// ToolCallRef is refengine.ToolCallRef.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ToolCallRef.
type ToolCallRef = refengine.ToolCallRef

// ToolCancelled is refengine.ToolCancelled.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ToolCancelled.
type ToolCancelled = refengine.ToolCancelled

// ToolContext is refengine.ToolContext.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ToolContext.
type ToolContext = refengine.ToolContext

// ToolDefinition is refengine.ToolDefinition.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ToolDefinition.
type ToolDefinition = refengine.ToolDefinition

// ToolExecutionResult is refengine.ToolExecutionResult.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ToolExecutionResult.
type ToolExecutionResult = refengine.ToolExecutionResult

// ToolInputError is refengine.ToolInputError.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ToolInputError.
type ToolInputError = refengine.ToolInputError

// ToolPermission is refengine.ToolPermission.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ToolPermission.
type ToolPermission = refengine.ToolPermission

// ToolProgressEvent is refengine.ToolProgressEvent.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ToolProgressEvent.
type ToolProgressEvent = refengine.ToolProgressEvent

// ToolResult is refengine.ToolResult.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ToolResult.
type ToolResult = refengine.ToolResult

// ToolResultEvent is refengine.ToolResultEvent.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ToolResultEvent.
type ToolResultEvent = refengine.ToolResultEvent

// Toolbox is refengine.Toolbox.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.Toolbox.
type Toolbox = refengine.Toolbox

// Transcript is refengine.Transcript.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.Transcript.
type Transcript = refengine.Transcript

// TranscriptError is refengine.TranscriptError.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.TranscriptError.
type TranscriptError = refengine.TranscriptError

// UsageEvent is refengine.UsageEvent.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.UsageEvent.
type UsageEvent = refengine.UsageEvent

// UserMessage is refengine.UserMessage.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.UserMessage.
type UserMessage = refengine.UserMessage

// Verdict is refengine.Verdict.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.Verdict.
type Verdict = refengine.Verdict

// Allow is refengine.Allow.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.Allow.
const Allow = refengine.Allow

// Deny is refengine.Deny.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.Deny.
const Deny = refengine.Deny

// EndCancelled is refengine.EndCancelled.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.EndCancelled.
const EndCancelled = refengine.EndCancelled

// EndError is refengine.EndError.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.EndError.
const EndError = refengine.EndError

// EndFinal is refengine.EndFinal.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.EndFinal.
const EndFinal = refengine.EndFinal

// EndMaxIterations is refengine.EndMaxIterations.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.EndMaxIterations.
const EndMaxIterations = refengine.EndMaxIterations

// EventEphemeral is refengine.EventEphemeral.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.EventEphemeral.
const EventEphemeral = refengine.EventEphemeral

// EventError is refengine.EventError.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.EventError.
const EventError = refengine.EventError

// EventHarnessEnd is refengine.EventHarnessEnd.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.EventHarnessEnd.
const EventHarnessEnd = refengine.EventHarnessEnd

// EventHarnessStart is refengine.EventHarnessStart.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.EventHarnessStart.
const EventHarnessStart = refengine.EventHarnessStart

// EventReasoning is refengine.EventReasoning.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.EventReasoning.
const EventReasoning = refengine.EventReasoning

// EventRelay is refengine.EventRelay.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.EventRelay.
const EventRelay = refengine.EventRelay

// EventReplInput is refengine.EventReplInput.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.EventReplInput.
const EventReplInput = refengine.EventReplInput

// EventReplOutput is refengine.EventReplOutput.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.EventReplOutput.
const EventReplOutput = refengine.EventReplOutput

// EventReplProgress is refengine.EventReplProgress.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.EventReplProgress.
const EventReplProgress = refengine.EventReplProgress

// EventText is refengine.EventText.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.EventText.
const EventText = refengine.EventText

// EventToolCall is refengine.EventToolCall.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.EventToolCall.
const EventToolCall = refengine.EventToolCall

// EventToolProgress is refengine.EventToolProgress.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.EventToolProgress.
const EventToolProgress = refengine.EventToolProgress

// EventToolResult is refengine.EventToolResult.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.EventToolResult.
const EventToolResult = refengine.EventToolResult

// EventUsage is refengine.EventUsage.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.EventUsage.
const EventUsage = refengine.EventUsage

// KindAssistantMessage is refengine.KindAssistantMessage.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.KindAssistantMessage.
const KindAssistantMessage = refengine.KindAssistantMessage

// KindAssistantTruncated is refengine.KindAssistantTruncated.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.KindAssistantTruncated.
const KindAssistantTruncated = refengine.KindAssistantTruncated

// KindContextReplace is refengine.KindContextReplace.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.KindContextReplace.
const KindContextReplace = refengine.KindContextReplace

// KindContextSummary is refengine.KindContextSummary.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.KindContextSummary.
const KindContextSummary = refengine.KindContextSummary

// KindExperienceForget is refengine.KindExperienceForget.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.KindExperienceForget.
const KindExperienceForget = refengine.KindExperienceForget

// KindExperienceRemember is refengine.KindExperienceRemember.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.KindExperienceRemember.
const KindExperienceRemember = refengine.KindExperienceRemember

// KindMultimodalToolResult is refengine.KindMultimodalToolResult.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.KindMultimodalToolResult.
const KindMultimodalToolResult = refengine.KindMultimodalToolResult

// KindToolCancelled is refengine.KindToolCancelled.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.KindToolCancelled.
const KindToolCancelled = refengine.KindToolCancelled

// KindToolResult is refengine.KindToolResult.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.KindToolResult.
const KindToolResult = refengine.KindToolResult

// KindUserMessage is refengine.KindUserMessage.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.KindUserMessage.
const KindUserMessage = refengine.KindUserMessage

// PhaseAbort is refengine.PhaseAbort.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.PhaseAbort.
const PhaseAbort = refengine.PhaseAbort

// PhaseHook is refengine.PhaseHook.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.PhaseHook.
const PhaseHook = refengine.PhaseHook

// PhaseLLM is refengine.PhaseLLM.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.PhaseLLM.
const PhaseLLM = refengine.PhaseLLM

// PhaseTool is refengine.PhaseTool.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.PhaseTool.
const PhaseTool = refengine.PhaseTool

// Relay is refengine.Relay.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.Relay.
const Relay = refengine.Relay

// ReplayAnthropicRedacted is refengine.ReplayAnthropicRedacted.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ReplayAnthropicRedacted.
const ReplayAnthropicRedacted = refengine.ReplayAnthropicRedacted

// ReplayAnthropicThinking is refengine.ReplayAnthropicThinking.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ReplayAnthropicThinking.
const ReplayAnthropicThinking = refengine.ReplayAnthropicThinking

// ReplayBedrockReasoning is refengine.ReplayBedrockReasoning.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ReplayBedrockReasoning.
const ReplayBedrockReasoning = refengine.ReplayBedrockReasoning

// ReplayBedrockRedacted is refengine.ReplayBedrockRedacted.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ReplayBedrockRedacted.
const ReplayBedrockRedacted = refengine.ReplayBedrockRedacted

// ReplayGeminiSignature is refengine.ReplayGeminiSignature.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ReplayGeminiSignature.
const ReplayGeminiSignature = refengine.ReplayGeminiSignature

// ReplayPlainText is refengine.ReplayPlainText.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ReplayPlainText.
const ReplayPlainText = refengine.ReplayPlainText

// ReplayResponsesReasoning is refengine.ReplayResponsesReasoning.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ReplayResponsesReasoning.
const ReplayResponsesReasoning = refengine.ReplayResponsesReasoning

// RuleBlockShape is refengine.RuleBlockShape.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.RuleBlockShape.
const RuleBlockShape = refengine.RuleBlockShape

// RuleThinkingPlacement is refengine.RuleThinkingPlacement.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.RuleThinkingPlacement.
const RuleThinkingPlacement = refengine.RuleThinkingPlacement

// RuleToolPairing is refengine.RuleToolPairing.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.RuleToolPairing.
const RuleToolPairing = refengine.RuleToolPairing

// SideChannelKey is refengine.SideChannelKey.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.SideChannelKey.
const SideChannelKey = refengine.SideChannelKey

// DefaultIdentity is refengine.DefaultIdentity.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.DefaultIdentity.
var DefaultIdentity = refengine.DefaultIdentity

// ErrDuplicateExperience is refengine.ErrDuplicateExperience.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ErrDuplicateExperience.
var ErrDuplicateExperience = refengine.ErrDuplicateExperience

// ErrDuplicateToolCall is refengine.ErrDuplicateToolCall.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ErrDuplicateToolCall.
var ErrDuplicateToolCall = refengine.ErrDuplicateToolCall

// ErrInvalidMessage is refengine.ErrInvalidMessage.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ErrInvalidMessage.
var ErrInvalidMessage = refengine.ErrInvalidMessage

// ErrInvalidThought is refengine.ErrInvalidThought.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ErrInvalidThought.
var ErrInvalidThought = refengine.ErrInvalidThought

// ErrPendingToolCalls is refengine.ErrPendingToolCalls.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ErrPendingToolCalls.
var ErrPendingToolCalls = refengine.ErrPendingToolCalls

// ErrUnknownExperience is refengine.ErrUnknownExperience.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ErrUnknownExperience.
var ErrUnknownExperience = refengine.ErrUnknownExperience

// ErrUnknownTool is refengine.ErrUnknownTool.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ErrUnknownTool.
var ErrUnknownTool = refengine.ErrUnknownTool

// ErrUnknownToolCall is refengine.ErrUnknownToolCall.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ErrUnknownToolCall.
var ErrUnknownToolCall = refengine.ErrUnknownToolCall

// CancelledText is refengine.CancelledText.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.CancelledText.
var CancelledText = refengine.CancelledText

// DefaultPermission is refengine.DefaultPermission.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.DefaultPermission.
var DefaultPermission = refengine.DefaultPermission

// MarshalEvent is refengine.MarshalEvent.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.MarshalEvent.
var MarshalEvent = refengine.MarshalEvent

// NewPermissionGate is refengine.NewPermissionGate.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.NewPermissionGate.
var NewPermissionGate = refengine.NewPermissionGate

// NewRelayEvent is refengine.NewRelayEvent.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.NewRelayEvent.
var NewRelayEvent = refengine.NewRelayEvent

// NewThought is refengine.NewThought.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.NewThought.
var NewThought = refengine.NewThought

// NewToolbox is refengine.NewToolbox.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.NewToolbox.
var NewToolbox = refengine.NewToolbox

// NewTranscript is refengine.NewTranscript.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.NewTranscript.
var NewTranscript = refengine.NewTranscript

// ParseThought is refengine.ParseThought.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ParseThought.
var ParseThought = refengine.ParseThought

// PlaceThoughts is refengine.PlaceThoughts.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.PlaceThoughts.
var PlaceThoughts = refengine.PlaceThoughts

// PlainThoughtBlock is refengine.PlainThoughtBlock.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.PlainThoughtBlock.
var PlainThoughtBlock = refengine.PlainThoughtBlock

// ReplayTags is refengine.ReplayTags.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ReplayTags.
var ReplayTags = refengine.ReplayTags

// RouteThoughts is refengine.RouteThoughts.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.RouteThoughts.
var RouteThoughts = refengine.RouteThoughts

// SideChannel is refengine.SideChannel.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.SideChannel.
var SideChannel = refengine.SideChannel

// ThoughtBlock is refengine.ThoughtBlock.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ThoughtBlock.
var ThoughtBlock = refengine.ThoughtBlock

// ThoughtFromBlock is refengine.ThoughtFromBlock.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ThoughtFromBlock.
var ThoughtFromBlock = refengine.ThoughtFromBlock

// ToolArguments is refengine.ToolArguments.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ToolArguments.
var ToolArguments = refengine.ToolArguments

// Validate is refengine.Validate.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.Validate.
var Validate = refengine.Validate

// ValidateOpen is refengine.ValidateOpen.
//
// Deprecated: use github.com/llmtck/llmtck/reference/engine.ValidateOpen.
var ValidateOpen = refengine.ValidateOpen
