#!/bin/sh
# Runs every fuzz target of the module for FUZZTIME each, one after the
# other, and prints one line per target: its package, name, execs and new
# interesting inputs. A failing target stops the run with its crasher saved
# under the package's testdata/fuzz, as go test leaves it.
#
# Go's fuzzing coordinator can fail a target with a bare "context deadline
# exceeded" as FUZZTIME runs out, writing no crasher (go.dev/issue/75804,
# fixed in Go 1.27). Such a run is reported as a flake and the sweep goes
# on; a failure that writes an input still stops it.
set -eu
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-15s}
# Minimizing each new input may take go test's default of 60s, during which
# no execution is counted: a 15s run then reports a few dozen execs.
FUZZMINIMIZETIME=${FUZZMINIMIZETIME:-2s}
total=0
flaked=0
# inputs counts the saved inputs of a target: a crasher adds one.
inputs() { ls "$1" 2>/dev/null | wc -l; }
for dir in $(git ls-files '*_test.go' | xargs grep -l '^func Fuzz' | xargs -n1 dirname | sort -u); do
	for name in $(grep -h '^func Fuzz' "$dir"/*_test.go | sed 's/^func \(Fuzz[A-Za-z0-9_]*\).*/\1/' | sort -u); do
		log=$(mktemp)
		saved="$dir/testdata/fuzz/$name"
		before=$(inputs "$saved")
		if ! "$GO" test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" -fuzzminimizetime "$FUZZMINIMIZETIME" "./$dir" >"$log" 2>&1; then
			if grep -q 'context deadline exceeded' "$log" && [ "$(inputs "$saved")" -eq "$before" ]; then
				echo "flake ./$dir $name: context deadline exceeded with no input written (go.dev/issue/75804)"
				flaked=$((flaked + 1))
				total=$((total + 1))
				rm -f "$log"
				continue
			fi
			cat "$log"
			echo "FAIL ./$dir $name"
			exit 1
		fi
		line=$(grep 'execs:' "$log" | tail -1 | sed 's/^fuzz: elapsed: [^,]*, //')
		echo "ok   ./$dir $name $line"
		total=$((total + 1))
		rm -f "$log"
	done
done
echo "$total fuzz targets ran for $FUZZTIME each ($flaked ended by the coordinator's deadline race)"
