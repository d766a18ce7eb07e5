# llmtck: `make demo` shows the whole pipeline, `make test` is what CI runs.
GO ?= go
PKGS := ./...

.PHONY: build test bench lint demo demo-corpus fmt-check fuzz fuzz-seeds mutants node-example

build:
	$(GO) build -buildvcs=auto -o bin/llmtck ./cmd/llmtck

# gofmt check, go vet, then the race-enabled tests (fuzz targets run their seed corpus).
test: fmt-check
	$(GO) vet $(PKGS)
	$(GO) test -race -count=1 $(PKGS)

# The Node example harness on the official SDKs (needs node and npm): install
# its dependencies, then play every bundled scenario with it.
node-example:
	cd examples/node-harness && npm install --no-audit --no-fund
	$(GO) test -count=1 -v ./examples/node-harness

fmt-check:
	@out="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))"; \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

lint: fmt-check
	$(GO) vet $(PKGS)

# Mutation testing on real traffic: one fault at a time planted into the
# corpus recordings; prints the catch rate per check family and every miss.
mutants:
	$(GO) test -count=1 -run TestMutantsOnRealTraffic -v ./conformance/checks | grep -E 'planted|MISS|ok|FAIL|set '

# Every fuzz target for FUZZTIME each (default 15s; about 65 targets), one
# line per target with its execs: make fuzz FUZZTIME=1m
FUZZTIME ?= 15s
fuzz:
	GO=$(GO) FUZZTIME=$(FUZZTIME) ./scripts/fuzz.sh

# Benchmarks only (no tests); figures that matter are compared side by side in one run.
bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

# The whole pipeline, offline, one line per step: a simulated provider, the
# recording proxy in front of it, the reference engine playing a scenario
# through the proxy, the cassette written, and its check report.
demo:
	$(GO) run ./examples/demo

# The main job on bundled real traffic, offline: decode every recording and
# check it. The Responses cassette holds a history edit the API rejected (400);
# the report flags it, so `check` exits 1 here by design.
demo-corpus: build
	@echo "== llmtck check fixtures/demo (real recorded traffic, 4 cassettes)"
	@./bin/llmtck check fixtures/demo; status=$$?; \
	echo "== llmtck check exited $$status (0: clean, 1: error-level findings, 2: unreadable input)"; \
	[ $$status -le 1 ]
