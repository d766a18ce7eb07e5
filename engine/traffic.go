// Package engine is deprecated: the traffic model moved to package traffic
// and the reference engine's domain to reference/engine. These aliases stay
// for one release so that code written against engine still builds.
package engine

import traffic "github.com/llmtck/llmtck/traffic"

// APIError is traffic.APIError.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.APIError.
type APIError = traffic.APIError

// Block is traffic.Block.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.Block.
type Block = traffic.Block

// BlockType is traffic.BlockType.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.BlockType.
type BlockType = traffic.BlockType

// Dialect is traffic.Dialect.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.Dialect.
type Dialect = traffic.Dialect

// Exchange is traffic.Exchange.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.Exchange.
type Exchange = traffic.Exchange

// List is traffic.List.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.List.
type List = traffic.List

// Memo is traffic.Memo.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.Memo.
type Memo = traffic.Memo

// Message is traffic.Message.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.Message.
type Message = traffic.Message

// Request is traffic.Request.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.Request.
type Request = traffic.Request

// Response is traffic.Response.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.Response.
type Response = traffic.Response

// Role is traffic.Role.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.Role.
type Role = traffic.Role

// Stream is traffic.Stream.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.Stream.
type Stream = traffic.Stream

// StreamIssue is traffic.StreamIssue.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.StreamIssue.
type StreamIssue = traffic.StreamIssue

// Thinking is traffic.Thinking.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.Thinking.
type Thinking = traffic.Thinking

// Tool is traffic.Tool.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.Tool.
type Tool = traffic.Tool

// Usage is traffic.Usage.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.Usage.
type Usage = traffic.Usage

// Wire is traffic.Wire.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.Wire.
type Wire = traffic.Wire

// BlockDocument is traffic.BlockDocument.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.BlockDocument.
const BlockDocument = traffic.BlockDocument

// BlockImage is traffic.BlockImage.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.BlockImage.
const BlockImage = traffic.BlockImage

// BlockOther is traffic.BlockOther.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.BlockOther.
const BlockOther = traffic.BlockOther

// BlockReasoning is traffic.BlockReasoning.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.BlockReasoning.
const BlockReasoning = traffic.BlockReasoning

// BlockRedacted is traffic.BlockRedacted.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.BlockRedacted.
const BlockRedacted = traffic.BlockRedacted

// BlockText is traffic.BlockText.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.BlockText.
const BlockText = traffic.BlockText

// BlockThinking is traffic.BlockThinking.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.BlockThinking.
const BlockThinking = traffic.BlockThinking

// BlockToolCall is traffic.BlockToolCall.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.BlockToolCall.
const BlockToolCall = traffic.BlockToolCall

// BlockToolResult is traffic.BlockToolResult.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.BlockToolResult.
const BlockToolResult = traffic.BlockToolResult

// CheckAnthropicBlockIndex is traffic.CheckAnthropicBlockIndex.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.CheckAnthropicBlockIndex.
const CheckAnthropicBlockIndex = traffic.CheckAnthropicBlockIndex

// CheckAnthropicDeltaType is traffic.CheckAnthropicDeltaType.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.CheckAnthropicDeltaType.
const CheckAnthropicDeltaType = traffic.CheckAnthropicDeltaType

// CheckAnthropicStream is traffic.CheckAnthropicStream.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.CheckAnthropicStream.
const CheckAnthropicStream = traffic.CheckAnthropicStream

// CheckAnthropicToolInput is traffic.CheckAnthropicToolInput.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.CheckAnthropicToolInput.
const CheckAnthropicToolInput = traffic.CheckAnthropicToolInput

// CheckBedrockStream is traffic.CheckBedrockStream.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.CheckBedrockStream.
const CheckBedrockStream = traffic.CheckBedrockStream

// CheckChatStream is traffic.CheckChatStream.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.CheckChatStream.
const CheckChatStream = traffic.CheckChatStream

// CheckGeminiStream is traffic.CheckGeminiStream.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.CheckGeminiStream.
const CheckGeminiStream = traffic.CheckGeminiStream

// CheckResponsesStream is traffic.CheckResponsesStream.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.CheckResponsesStream.
const CheckResponsesStream = traffic.CheckResponsesStream

// DialectAzure is traffic.DialectAzure.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.DialectAzure.
const DialectAzure = traffic.DialectAzure

// DialectBedrock is traffic.DialectBedrock.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.DialectBedrock.
const DialectBedrock = traffic.DialectBedrock

// DialectCompatible is traffic.DialectCompatible.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.DialectCompatible.
const DialectCompatible = traffic.DialectCompatible

// DialectDeepSeek is traffic.DialectDeepSeek.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.DialectDeepSeek.
const DialectDeepSeek = traffic.DialectDeepSeek

// DialectDirect is traffic.DialectDirect.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.DialectDirect.
const DialectDirect = traffic.DialectDirect

// DialectFireworks is traffic.DialectFireworks.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.DialectFireworks.
const DialectFireworks = traffic.DialectFireworks

// DialectGroq is traffic.DialectGroq.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.DialectGroq.
const DialectGroq = traffic.DialectGroq

// DialectLlamaCpp is traffic.DialectLlamaCpp.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.DialectLlamaCpp.
const DialectLlamaCpp = traffic.DialectLlamaCpp

// DialectMistral is traffic.DialectMistral.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.DialectMistral.
const DialectMistral = traffic.DialectMistral

// DialectMoonshot is traffic.DialectMoonshot.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.DialectMoonshot.
const DialectMoonshot = traffic.DialectMoonshot

// DialectOllama is traffic.DialectOllama.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.DialectOllama.
const DialectOllama = traffic.DialectOllama

// DialectOpenRouter is traffic.DialectOpenRouter.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.DialectOpenRouter.
const DialectOpenRouter = traffic.DialectOpenRouter

// DialectTogether is traffic.DialectTogether.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.DialectTogether.
const DialectTogether = traffic.DialectTogether

// DialectUnknown is traffic.DialectUnknown.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.DialectUnknown.
const DialectUnknown = traffic.DialectUnknown

// DialectVLLM is traffic.DialectVLLM.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.DialectVLLM.
const DialectVLLM = traffic.DialectVLLM

// DialectVertex is traffic.DialectVertex.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.DialectVertex.
const DialectVertex = traffic.DialectVertex

// DialectXAI is traffic.DialectXAI.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.DialectXAI.
const DialectXAI = traffic.DialectXAI

// DialectZAI is traffic.DialectZAI.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.DialectZAI.
const DialectZAI = traffic.DialectZAI

// FactStreamError is traffic.FactStreamError.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.FactStreamError.
const FactStreamError = traffic.FactStreamError

// FactTruncated is traffic.FactTruncated.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.FactTruncated.
const FactTruncated = traffic.FactTruncated

// RoleAssistant is traffic.RoleAssistant.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.RoleAssistant.
const RoleAssistant = traffic.RoleAssistant

// RoleDeveloper is traffic.RoleDeveloper.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.RoleDeveloper.
const RoleDeveloper = traffic.RoleDeveloper

// RoleSystem is traffic.RoleSystem.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.RoleSystem.
const RoleSystem = traffic.RoleSystem

// RoleTool is traffic.RoleTool.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.RoleTool.
const RoleTool = traffic.RoleTool

// RoleUser is traffic.RoleUser.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.RoleUser.
const RoleUser = traffic.RoleUser

// WireAnthropic is traffic.WireAnthropic.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.WireAnthropic.
const WireAnthropic = traffic.WireAnthropic

// WireBedrock is traffic.WireBedrock.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.WireBedrock.
const WireBedrock = traffic.WireBedrock

// WireGemini is traffic.WireGemini.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.WireGemini.
const WireGemini = traffic.WireGemini

// WireOpenAI is traffic.WireOpenAI.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.WireOpenAI.
const WireOpenAI = traffic.WireOpenAI

// WireResponses is traffic.WireResponses.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.WireResponses.
const WireResponses = traffic.WireResponses

// WireUnknown is traffic.WireUnknown.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.WireUnknown.
const WireUnknown = traffic.WireUnknown

// HostOf is traffic.HostOf.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.HostOf.
var HostOf = traffic.HostOf

// NewMemo is traffic.NewMemo.
//
// Deprecated: use github.com/llmtck/llmtck/traffic.NewMemo.
var NewMemo = traffic.NewMemo
