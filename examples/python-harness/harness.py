#!/usr/bin/env python3
"""A harness that plays one llmtck scenario, with the Python standard library only.

It follows docs/harness-protocol.md: it reads the scenario named by
LLMTCK_SCENARIO, talks to each turn's provider at the base URL the official
SDKs read (ANTHROPIC_BASE_URL, OPENAI_BASE_URL, GOOGLE_GEMINI_BASE_URL,
AWS_ENDPOINT_URL_BEDROCK_RUNTIME), keeps the conversation as an application
would, and exits non-zero on any provider error. Run it under llmtck:

    llmtck test -- python3 examples/python-harness/harness.py

An assistant answer is kept as its provider sent it and sent back unchanged
to the same provider and model; another provider or model gets its text and
tool calls only, so no opaque reasoning goes where it cannot be read.
"""

import http.client
import json
import os
import sys
import urllib.parse

CANCELLED = "cancelled: the user pressed stop while the tool ran"

# A bug to plant, for the tests that prove llmtck catches it: "" for none,
# "split-results" (parallel tool results in separate messages) or
# "exit-early" (stop after the first turn, and exit 0).
DEFECT = os.environ.get("LLMTCK_EXAMPLE_DEFECT", "")

# A correct variation: "genai-chat" keeps a Gemini answer as @google/genai's
# streamed Chat does, one model content per chunk.
STYLE = os.environ.get("LLMTCK_EXAMPLE_STYLE", "")


class ProviderError(Exception):
    """A provider answered with an error status."""


def dumps(v):
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"))


def loads(b):
    return json.loads(b)


def env_url(name, default_suffix=""):
    v = os.environ.get(name)
    if not v:
        sys.exit("harness: %s is not set; run me under `llmtck test`" % name)
    return v.rstrip("/") + default_suffix


def post(url, body, headers, stream=False):
    """POST body as JSON; returns the open response (stream) or its parsed body."""
    u = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
    path = u.path + ("?" + u.query if u.query else "")
    hdrs = {"Content-Type": "application/json"}
    hdrs.update(headers)
    conn.request("POST", path, body=dumps(body).encode("utf-8"), headers=hdrs)
    resp = conn.getresponse()
    if resp.status != 200:
        data = resp.read().decode("utf-8", "replace")
        why = resp.headers.get_all("X-Llmtck-Finding") or []
        raise ProviderError("HTTP %d from %s: %s%s" % (resp.status, path, data, "".join("\n  finding: " + w for w in why)))
    if stream:
        return conn, resp
    data = resp.read()
    conn.close()
    return loads(data)


def sse_events(resp):
    """Yields (event, data) from a server-sent event stream; raises on a cut."""
    event, data = None, []
    while True:
        line = resp.readline()
        if not line:
            return
        line = line.decode("utf-8").rstrip("\r\n")
        if line == "":
            if data:
                yield event, "\n".join(data)
            event, data = None, []
        elif line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].lstrip(" "))


# The conversation: neutral entries, each assistant entry holding its
# provider's own content for that provider and model.
#   {"role": "user", "text": ...}
#   {"role": "assistant", "wire": w, "model": m, "raw": [...], "text": ..., "calls": [...]}
#   {"role": "results", "results": [{"id", "name", "output", "error"}]}
# A call is {"id", "name", "args"}: args is the JSON text of the arguments.


class Turn:
    def __init__(self, sc, t):
        self.wire = t.get("provider") or sc["wire"]
        self.model = t.get("model") or sc["model"]
        self.prompt = t["prompt"]
        self.compact = t.get("compact")
        self.schema = t.get("output_schema")
        self.feedback = t.get("feedback")


def load_scenario():
    path = os.environ.get("LLMTCK_SCENARIO")
    name = os.environ.get("LLMTCK_SCENARIO_NAME", "")
    if not path:
        sys.exit("harness: LLMTCK_SCENARIO is not set; run me under `llmtck test`")
    with open(path, encoding="utf-8") as f:
        sc = json.load(f)
    sc["wire"] = name.split("/")[0]
    turns = sc.get("turns") or [{"prompt": sc["prompt"]}]
    sc["turn_list"] = [Turn(sc, t) for t in turns]
    sc["tool_map"] = {t["name"]: t for t in sc.get("tools", [])}
    return sc


# ---- Anthropic Messages (streamed) ----

def anthropic_messages(conv, wire, model):
    out = []
    for e in conv:
        if e["role"] == "user":
            out.append({"role": "user", "content": [{"type": "text", "text": e["text"]}]})
        elif e["role"] == "assistant":
            if e["wire"] == wire and e["model"] == model:
                content = e["raw"]
            else:
                content = ([{"type": "text", "text": e["text"]}] if e["text"] else []) + [
                    {"type": "tool_use", "id": c["id"], "name": c["name"], "input": loads(c["args"])} for c in e["calls"]]
            out.append({"role": "assistant", "content": content})
        elif DEFECT == "split-results":
            # A bug harnesses ship: one message per tool result.
            out.extend({"role": "user", "content": [{"type": "tool_result", "tool_use_id": r["id"], "content": r["output"], "is_error": r["error"]}]}
                       for r in e["results"])
        else:
            out.append({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": r["id"], "content": r["output"], "is_error": r["error"]} for r in e["results"]]})
    return out


def anthropic_call(sc, turn, conv):
    body = {"model": turn.model, "max_tokens": sc.get("max_tokens") or 1024, "stream": True,
            "messages": anthropic_messages(conv, "anthropic", turn.model)}
    if sc.get("system"):
        body["system"] = sc["system"]
    if sc.get("thinking"):
        body["thinking"] = sc["thinking"]
    if sc.get("tools"):
        body["tools"] = [{"name": t["name"], "description": t.get("description", ""), "input_schema": t["input_schema"]} for t in sc["tools"]]
    conn, resp = post(env_url("ANTHROPIC_BASE_URL", "/v1/messages"), body,
                      {"x-api-key": os.environ.get("ANTHROPIC_API_KEY", ""), "anthropic-version": "2023-06-01"}, stream=True)
    blocks, partial, done = [], {}, False
    try:
        for event, data in sse_events(resp):
            ev = loads(data)
            kind = ev.get("type")
            if kind == "content_block_start":
                blocks.append(ev["content_block"])
                partial[ev["index"]] = ""
            elif kind == "content_block_delta":
                b, d = blocks[ev["index"]], ev["delta"]
                if d["type"] == "text_delta":
                    b["text"] += d["text"]
                elif d["type"] == "thinking_delta":
                    b["thinking"] += d["thinking"]
                elif d["type"] == "signature_delta":
                    b["signature"] = b.get("signature", "") + d["signature"]
                elif d["type"] == "input_json_delta":
                    partial[ev["index"]] += d["partial_json"]
            elif kind == "content_block_stop":
                b = blocks[ev["index"]]
                if b["type"] == "tool_use":
                    b["input"] = loads(partial[ev["index"]] or "{}")
            elif kind == "message_stop":
                done = True
            elif kind == "error":
                raise ProviderError("stream error: " + data)
    except (http.client.IncompleteRead, ConnectionError, OSError):
        done = False
    finally:
        conn.close()
    if not done:
        return None  # cut off: the user pressed stop
    calls = [{"id": b["id"], "name": b["name"], "args": dumps(b["input"])} for b in blocks if b["type"] == "tool_use"]
    text = "".join(b.get("text", "") for b in blocks if b["type"] == "text")
    return {"role": "assistant", "wire": "anthropic", "model": turn.model, "raw": blocks, "text": text, "calls": calls}


# ---- OpenAI Chat Completions ----

def chat_call(sc, turn, conv):
    msgs = [{"role": "system", "content": sc["system"]}] if sc.get("system") else []
    for e in conv:
        if e["role"] == "user":
            msgs.append({"role": "user", "content": e["text"]})
        elif e["role"] == "assistant":
            m = {"role": "assistant", "content": e["text"] or None}
            if e["calls"]:
                m["tool_calls"] = [{"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["args"]}} for c in e["calls"]]
            msgs.append(m)
        else:
            for r in e["results"]:
                msgs.append({"role": "tool", "tool_call_id": r["id"], "content": r["output"]})
    body = {"model": turn.model, "messages": msgs, "max_completion_tokens": sc.get("max_tokens") or 1024}
    if sc.get("tools"):
        body["tools"] = [{"type": "function", "function": {"name": t["name"], "description": t.get("description", ""), "parameters": t["input_schema"]}} for t in sc["tools"]]
    resp = post(env_url("OPENAI_BASE_URL", "/chat/completions"), body, {"Authorization": "Bearer " + os.environ.get("OPENAI_API_KEY", "")})
    m = resp["choices"][0]["message"]
    calls = [{"id": c["id"], "name": c["function"]["name"], "args": c["function"]["arguments"]} for c in (m.get("tool_calls") or [])]
    return {"role": "assistant", "wire": "openai", "model": turn.model, "raw": m, "text": m.get("content") or "", "calls": calls}


# ---- OpenAI Responses (store: false, encrypted reasoning carried) ----

def responses_call(sc, turn, conv):
    items = []
    for e in conv:
        if e["role"] == "user":
            items.append({"role": "user", "content": e["text"]})
        elif e["role"] == "assistant":
            if e["wire"] == "responses" and e["model"] == turn.model:
                items.extend(e["raw"])
            else:
                if e["text"]:
                    items.append({"role": "assistant", "content": e["text"]})
                items.extend({"type": "function_call", "call_id": c["id"], "name": c["name"], "arguments": c["args"]} for c in e["calls"])
        else:
            items.extend({"type": "function_call_output", "call_id": r["id"], "output": r["output"]} for r in e["results"])
    body = {"model": turn.model, "input": items, "store": False, "include": ["reasoning.encrypted_content"],
            "max_output_tokens": sc.get("max_tokens") or 1024}
    if sc.get("system"):
        body["instructions"] = sc["system"]
    if sc.get("tools"):
        body["tools"] = [{"type": "function", "name": t["name"], "description": t.get("description", ""), "parameters": t["input_schema"]} for t in sc["tools"]]
    resp = post(env_url("OPENAI_BASE_URL", "/responses"), body, {"Authorization": "Bearer " + os.environ.get("OPENAI_API_KEY", "")})
    out = resp["output"]
    calls = [{"id": i["call_id"], "name": i["name"], "args": i["arguments"]} for i in out if i.get("type") == "function_call"]
    text = "".join(c.get("text", "") for i in out if i.get("type") == "message" for c in i["content"] if c.get("type") == "output_text")
    return {"role": "assistant", "wire": "responses", "model": turn.model, "raw": out, "text": text, "calls": calls}


# ---- Gemini generateContent ----

def gemini_call(sc, turn, conv):
    contents = []
    for e in conv:
        if e["role"] == "user":
            contents.append({"role": "user", "parts": [{"text": e["text"]}]})
        elif e["role"] == "assistant":
            if e["wire"] == "gemini" and e["model"] == turn.model:
                parts = e["raw"]
            else:
                parts = ([{"text": e["text"]}] if e["text"] else []) + [{"functionCall": {"name": c["name"], "args": loads(c["args"])}} for c in e["calls"]]
            if STYLE == "genai-chat":
                # As @google/genai's streamed Chat keeps history: one model
                # content per streamed chunk, each chunk a part here.
                contents.extend({"role": "model", "parts": [p]} for p in parts)
            else:
                contents.append({"role": "model", "parts": parts})
        else:
            parts = []
            for r in e["results"]:
                fr = {"name": r["name"], "response": {"error" if r["error"] else "output": r["output"]}}
                if not r["id"].startswith("gemini-call-"):
                    fr["id"] = r["id"]
                parts.append({"functionResponse": fr})
            contents.append({"role": "user", "parts": parts})
    body = {"contents": contents, "generationConfig": {"maxOutputTokens": sc.get("max_tokens") or 1024}}
    if sc.get("system"):
        body["systemInstruction"] = {"parts": [{"text": sc["system"]}]}
    if sc.get("tools"):
        body["tools"] = [{"functionDeclarations": [{"name": t["name"], "description": t.get("description", ""), "parameters": t["input_schema"]} for t in sc["tools"]]}]
    url = env_url("GOOGLE_GEMINI_BASE_URL", "/v1beta/models/%s:generateContent" % urllib.parse.quote(turn.model))
    resp = post(url, body, {"x-goog-api-key": os.environ.get("GEMINI_API_KEY", "")})
    parts = resp["candidates"][0]["content"]["parts"]
    calls = []
    for n, p in enumerate(parts):
        if "functionCall" in p:
            fc = p["functionCall"]
            calls.append({"id": fc.get("id") or "gemini-call-%d" % n, "name": fc["name"], "args": dumps(fc.get("args", {}))})
    text = "".join(p.get("text", "") for p in parts if not p.get("thought"))
    return {"role": "assistant", "wire": "gemini", "model": turn.model, "raw": parts, "text": text, "calls": calls}


# ---- Bedrock Converse (unsigned: the simulator needs no identity) ----

def bedrock_call(sc, turn, conv):
    msgs = []
    for e in conv:
        if e["role"] == "user":
            msgs.append({"role": "user", "content": [{"text": e["text"]}]})
        elif e["role"] == "assistant":
            if e["wire"] == "bedrock" and e["model"] == turn.model:
                content = e["raw"]
            else:
                content = ([{"text": e["text"]}] if e["text"] else []) + [
                    {"toolUse": {"toolUseId": c["id"], "name": c["name"], "input": loads(c["args"])}} for c in e["calls"]]
            msgs.append({"role": "assistant", "content": content})
        else:
            msgs.append({"role": "user", "content": [
                {"toolResult": {"toolUseId": r["id"], "content": [{"text": r["output"]}], "status": "error" if r["error"] else "success"}} for r in e["results"]]})
    merged = []
    for m in msgs:  # Converse wants the roles to alternate: one user message per turn
        if merged and merged[-1]["role"] == m["role"]:
            merged[-1] = {"role": m["role"], "content": merged[-1]["content"] + m["content"]}
        else:
            merged.append(m)
    body = {"messages": merged, "inferenceConfig": {"maxTokens": sc.get("max_tokens") or 1024}}
    if sc.get("system"):
        body["system"] = [{"text": sc["system"]}]
    if sc.get("tools"):
        body["toolConfig"] = {"tools": [{"toolSpec": {"name": t["name"], "description": t.get("description", ""), "inputSchema": {"json": t["input_schema"]}}} for t in sc["tools"]]}
    url = env_url("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", "/model/%s/converse" % urllib.parse.quote(turn.model, safe=""))
    resp = post(url, body, {})
    content = resp["output"]["message"]["content"]
    calls = [{"id": b["toolUse"]["toolUseId"], "name": b["toolUse"]["name"], "args": dumps(b["toolUse"]["input"])} for b in content if "toolUse" in b]
    text = "".join(b.get("text", "") for b in content)
    return {"role": "assistant", "wire": "bedrock", "model": turn.model, "raw": content, "text": text, "calls": calls}


CALLS = {"anthropic": anthropic_call, "openai": chat_call, "responses": responses_call, "gemini": gemini_call, "bedrock": bedrock_call}


def run_tools(sc, answer):
    """Runs the answer's calls in order; returns (results, cancelled)."""
    results, cancelled = [], False
    for c in answer["calls"]:
        tool = sc["tool_map"].get(c["name"])
        if cancelled or (tool and tool.get("cancel")):
            cancelled = True
            results.append({"id": c["id"], "name": c["name"], "output": CANCELLED, "error": True})
        elif tool is None:
            results.append({"id": c["id"], "name": c["name"], "output": "no tool named " + c["name"], "error": True})
        else:
            results.append({"id": c["id"], "name": c["name"], "output": tool["result"], "error": False})
    return results, cancelled


def tool_loop(sc, turn, conv):
    """Runs one turn to its final answer; returns the entries it added, or
    (entries, "cancelled"/"aborted")."""
    added = []
    while True:
        answer = CALLS[turn.wire](sc, turn, conv + added)
        if answer is None:
            return added, "aborted"
        added.append(answer)
        if not answer["calls"]:
            return added, "final"
        results, cancelled = run_tools(sc, answer)
        added.append({"role": "results", "results": results})
        if cancelled:
            return added, "cancelled"


def matches(schema, value):
    """A small JSON Schema check: type, required, properties, additionalProperties."""
    types = {"object": dict, "string": str, "array": list, "boolean": bool, "null": type(None)}
    t = schema.get("type")
    if t in ("number", "integer"):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
    elif t in types and not isinstance(value, types[t]):
        return False
    if isinstance(value, dict):
        props = schema.get("properties", {})
        if any(k not in value for k in schema.get("required", [])):
            return False
        if schema.get("additionalProperties") is False and any(k not in props for k in value):
            return False
        return all(matches(props[k], v) for k, v in value.items() if k in props)
    return True


def valid(schema, text):
    try:
        return matches(schema, json.loads(text))
    except ValueError:
        return False


def main():
    sc = load_scenario()
    conv = []
    for i, turn in enumerate(sc["turn_list"]):
        if turn.compact:
            conv = [{"role": "user", "text": turn.compact}]
        conv.append({"role": "user", "text": turn.prompt})
        added, ended = tool_loop(sc, turn, conv)
        if ended == "final" and turn.schema and not valid(turn.schema, added[-1]["text"]):
            # Retry once: the refused answer and the feedback are sent this
            # once and never kept.
            retry = conv + added + [{"role": "user", "text": turn.feedback}]
            accepted, ended = tool_loop(sc, turn, retry)
            added = accepted
        if ended == "aborted":
            added = []  # nothing cut off is kept; the prompt stays
        conv.extend(added)
        print("turn %d (%s): %s" % (i + 1, turn.wire, ended))
        if DEFECT == "exit-early":
            return


if __name__ == "__main__":
    try:
        main()
    except ProviderError as e:
        print("harness: the provider refused a request: %s" % e, file=sys.stderr)
        sys.exit(1)
