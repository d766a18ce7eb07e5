#!/bin/sh
# Runs every fuzz target of the module for FUZZTIME each, one after the
# other, and prints one line per target: its package, name, execs and new
# interesting inputs. A failing target stops the run with its crasher saved
# under the package's testdata/fuzz, as go test leaves it.
set -eu
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-15s}
# Minimizing each new input may take go test's default of 60s, during which
# no execution is counted: a 15s run then reports a few dozen execs.
FUZZMINIMIZETIME=${FUZZMINIMIZETIME:-2s}
total=0
for dir in $(git ls-files '*_test.go' | xargs grep -l '^func Fuzz' | xargs -n1 dirname | sort -u); do
	for name in $(grep -h '^func Fuzz' "$dir"/*_test.go | sed 's/^func \(Fuzz[A-Za-z0-9_]*\).*/\1/' | sort -u); do
		log=$(mktemp)
		if ! "$GO" test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" -fuzzminimizetime "$FUZZMINIMIZETIME" "./$dir" >"$log" 2>&1; then
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
echo "$total fuzz targets ran for $FUZZTIME each"
