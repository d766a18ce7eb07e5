package gemini

import (
	"slices"

	"github.com/llmtck/llmtck/conformance/check"
	"github.com/llmtck/llmtck/traffic"
)

// The Gemini checks (docs/provider-rules.md §4.4–4.5): thought signatures go back
// exactly as received, beside the part they came on; every step of the
// current turn keeps the signature of its first function call; call and
// response turns alternate and match in number; cancelled calls are closed
// with an error response; recorded credentials are redacted.
var checks = []*check.Check{
	declare(&check.Check{
		ID: "GEM-SIG-001", Title: "thoughtSignature beside the functionCall", Severity: check.SeverityError, Scope: "R",
		Law:           "A thoughtSignature is a field of the Part, a sibling of functionCall (or text), never a field inside the functionCall or functionResponse object.",
		ProviderError: "Invalid JSON payload received. Unknown name \"thoughtSignature\" at 'contents[N].parts[M].function_call': Cannot find field.",
		Troubleshoot: "The API parses the request against its proto schema, and FunctionCall has no signature field, so a nested one fails the whole request (the error above, reported in anthonyhaussman/opencode-agy-auth#56; TanStack/ai#459). " +
			"It comes from request builders that attach the signature to the call object they already have (call[\"thoughtSignature\"] = sig) and from SDK types that model it as a FunctionCall field. " +
			"Move it up one level, onto the part: {\"functionCall\": {…}, \"thoughtSignature\": \"…\"}. A nested signature also leaves the call without one, which GEM-SIG-002 reports on Gemini 3.",
		Evidence: check.Evidence{Endpoints: check.GeminiEndpoints, Sources: []string{"TanStack/ai#459 (thoughtSignature nested in functionCall)", "docs/provider-rules.md §4.2"}},
		Judge:    judgeSignatureBesideCall,
	}),
	declare(&check.Check{
		ID: "GEM-SIG-002", Title: "Current-turn calls keep their signature", Severity: check.SeverityError, Scope: "R",
		Law:           "In every step of the current turn (since the last user content that is not only function responses), the first functionCall part carries the thoughtSignature its response gave it; a call no recorded response produced carries one too on models that validate them.",
		ProviderError: "Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:<name>` , position <k>. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.",
		Troubleshoot: "Gemini 3 models validate the signatures of the current turn and reject a step whose first call lost its one (lbjlaq/Antigravity-Manager#938, csells/dartantic#86, TanStack/ai#216). " +
			"Typical causes: a history store that keeps only name and args of a tool call, a converter between provider formats, a signature nested inside functionCall (GEM-SIG-001), or parallel calls rebuilt in another order. " +
			"Keep the part as received, signature included; only the first of parallel calls has one. A call the client wrote itself or imported from another model may carry the documented dummy signature (GEM-SIG-005). " +
			"On models that do not validate (Gemini 2.5 and older, Gemini 3 Pro Image) and in older turns the same drop is a warning: the request passes but the model loses its reasoning.",
		Evidence: check.Evidence{Endpoints: check.GeminiEndpoints, Models: "Gemini 3 (2.5 does not validate)", Sources: []string{"lbjlaq/Antigravity-Manager#938", "csells/dartantic#86", "Gemini docs: thought-signatures", "nanbingxyz/5ire#405 (2.5 does not enforce)", "docs/provider-rules.md G2"}},
		Judge:    judgeCurrentTurnSigned,
	}),
	declare(&check.Check{
		ID: "GEM-SIG-003", Title: "Echoed signatures unchanged and in place", Severity: check.SeverityError, Scope: "R,C",
		Law:           "An echoed thoughtSignature decodes to the same bytes as the one recorded and sits on the part that carried it (same content, same part, not moved to a neighbour or another content).",
		ProviderError: "Corrupted thought signature. / Unable to submit request because Thought signature is not valid",
		Troubleshoot: "A signature is bound to its part and to the route, model and key that produced it (google-gemini/gemini-cli#13467, charmbracelet/crush#1698, decolua/9router#301). " +
			"It breaks when a store trims or re-wraps the string, when a converter rebuilds parts and puts the signature on the wrong one (for example copying it onto every parallel call), or when history from another route or key is replayed. " +
			"Signatures are compared after base64 decoding: the URL-safe re-encoding pydantic-ai sends is accepted by the API and is only an XP-RAW-001 note. " +
			"The finding is an error for function-call parts of the current turn on models that validate signatures (Gemini 3), and a warning elsewhere (text parts, older turns, older models), where the API does not check them. Send back the token exactly as received, on the same part.",
		Evidence: check.Evidence{Endpoints: check.GeminiEndpoints, Models: "Gemini 3", Sources: []string{"google-gemini/gemini-cli#13467", "charmbracelet/crush#1698", "decolua/9router#301 (Vertex)", "docs/provider-rules.md G1, G3"}},
		Judge:    judgeSignaturesUnchanged,
	}),
	declare(&check.Check{
		ID: "GEM-SIG-004", Title: "Signature-only parts kept as their own part", Severity: check.SeverityWarning, Scope: "R",
		Law:           "A part that carries only a thoughtSignature (empty text, often the last chunk of a stream) is echoed as its own part, in place: neither merged into the text before it nor dropped.",
		ProviderError: "",
		Troubleshoot: "Gemini 3 streams often end with a part {\"text\": \"\", \"thoughtSignature\": \"…\"} after the text it belongs to (modfin/bellman#35, pydantic/pydantic-ai#3481). " +
			"Stream accumulators that concatenate text parts merge it into the previous part or drop it as empty, and the model then loses the reasoning the signature stands for. " +
			"Accumulate parts, not text: append text to the previous part only when neither carries a signature, as llmtck's codec and go-genai's chat do.",
		Judge: judgeSignatureOnlyPartsKept,
	}),
	declare(&check.Check{
		ID: "GEM-SIG-005", Title: "Dummy signatures only on synthetic calls", Severity: check.SeverityInfo, Scope: "R,C",
		Law:           "The documented dummy signatures (context_engineering_is_the_way_to_go, skip_thought_signature_validator) stand only on parts no recorded response produced, never in place of a real signature the response gave.",
		ProviderError: "",
		Troubleshoot: "The thought-signature guide offers the dummies for function calls the client injected or imported from another model, so Gemini 3 accepts history it did not produce; llmtck treats such parts as synthetic, not as echoes (pydantic-ai sends the base64 form for calls imported from OpenAI). " +
			"Using a dummy where the real signature was available skips validation and throws away the model's reasoning state: harnesses do it when they add the dummy to every call instead of only to calls without a signature (strands-agents/sdk-python#1298 did so as a stopgap). Keep real signatures and add the dummy only where none exists.",
		Judge: judgeDummyOnlyOnSynthetic,
	}),
	declare(&check.Check{
		ID: "GEM-SIG-006", Title: "Signatures on text parts echoed", Severity: check.SeverityWarning, Scope: "R",
		Law:           "A thoughtSignature the response put on a text, thought or other non-call part is echoed with that part.",
		ProviderError: "",
		Troubleshoot: "The API validates signatures on function calls only, so dropping the one on a text part passes, but the guide asks for all of them back: without it the model does not see its earlier reasoning (a warning, silent degradation). " +
			"It is lost by stores that keep a signature only on tool calls (rig's Vertex provider did, 0xPlaygrounds/rig#2052) and by converters that rebuild text parts from plain strings. Keep the signature with the text part it came on.",
		Judge: judgeTextSignaturesEchoed,
	}),
	declare(&check.Check{
		ID: "GEM-TOOL-001", Title: "Call and response turns in order", Severity: check.SeverityError, Scope: "R",
		Law:           "A model turn with functionCall parts comes right after a user turn or a function response turn (never first), and a content with functionResponse parts comes right after a model turn with functionCall parts.",
		ProviderError: "Please ensure that function call turn comes immediately after a user turn or after a function response turn. / Please ensure that function response turn comes immediately after a function call turn.",
		Troubleshoot: "The first error is what a history that starts with a function call gets — typically after compaction or a sliding window cut off the user message that started the turn (google-gemini/gemini-cli#11814). " +
			"The second follows a response turn with no call before it: a dropped or merged model turn, or function responses split over several user contents after the call (google-gemini/gemini-cli#26956, langchain-ai/langchain#27799, lobehub/lobehub#7298). " +
			"Cut history only at the start of a user turn, and send all the responses of one call turn in the one user content that follows it. Consecutive model contents count as one turn, as go-genai's chat sends a stream one chunk per content.",
		Evidence: check.Evidence{Endpoints: check.GeminiEndpoints, Sources: []string{"google-gemini/gemini-cli#11814", "langchain-ai/langchain#27799", "lobehub/lobehub#7298", "crewAI's TestGeminiNativeToolCalling (responses one content each, 200)", "docs/provider-rules.md G6"}},
		Judge:    judgeTurnOrder,
	}),
	declare(&check.Check{
		ID: "GEM-TOOL-002", Title: "One function response per call", Severity: check.SeverityError, Scope: "R",
		Law:           "The content after a function call turn holds as many functionResponse parts as the turn has functionCall parts; each response is named after its call and, when both carry ids, has the id of its call.",
		ProviderError: "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.",
		Troubleshoot: "Seen when a cancelled or failed call gets no response at all, or parallel calls are answered in separate contents or only in part (google-gemini/gemini-cli#4217, microsoft/vscode#299295). " +
			"Answer every call of the turn in the next content, in order, a cancelled one with {\"error\": …} (GEM-CANCEL-001). " +
			"A name or id that does not match its call is not rejected by the models recorded so far (cagent names its responses after the call id and Gemini 2.5 accepts it), so it is reported as info: the model reads results against the wrong call.",
		Evidence: check.Evidence{Endpoints: check.GeminiEndpoints, Sources: []string{"google-gemini/gemini-cli#4217", "microsoft/vscode#299295", "docs/provider-rules.md G7"}},
		Judge:    judgeOneResponsePerCall,
	}),
	declare(&check.Check{
		ID: "GEM-CANCEL-001", Title: "Cancelled calls answered with an error", Severity: check.SeverityInfo, Scope: "R",
		Law:           "A call that was cancelled, denied or not run is answered with a functionResponse whose response is {\"error\": …} saying so; no response is empty, and model content from a stream that ended without finishReason is not echoed.",
		ProviderError: "",
		Troubleshoot: "The API reads response.output as a result and response.error as a failure; a cancellation written as a result reads as success, and an empty response as a call that returned nothing. " +
			"Gemini CLI answers cancelled calls with {\"error\": \"[Operation Cancelled] Reason: User cancelled the operation.\"}; do the same in the same response turn (GEM-TOOL-002). " +
			"A stream cut before its finishReason (the user pressed stop, the connection dropped) left partial model content; go-genai's chat drops such a turn together with its user input instead of echoing it.",
		Judge: judgeCancelledAnsweredWithError,
	}),
	declare(&check.Check{
		ID: "GEM-HDR-001", Title: "Gemini credentials redacted (retired: XP-SECRET-001)", Severity: check.SeverityInfo, Scope: "C",
		Law:           "A recorded Gemini request keeps no credential: the x-goog-api-key and authorization header values and the key= query parameter are redacted.",
		ProviderError: "",
		Troubleshoot:  "Retired in 0.2.0: XP-SECRET-001 judges credentials on every wire, as an error.",
		Retired:       "XP-SECRET-001",
	}),
}

// declare fills what every check of the family shares.
func declare(c *check.Check) *check.Check {
	c.Wire, c.Since = traffic.WireGemini, "0.1.0"
	return c
}

// Checks returns the family's checks, in the order they are declared.
func Checks() []*check.Check { return slices.Clone(checks) }
