#!/usr/bin/env bash
# Go native fuzzing of what the public sends us (issue #11 "Harnesses that stay"). `go test -fuzz`
# takes one target per run, so each runs in turn for FUZZTIME (default 30s). Prints each target's
# executions and crashes and the totals; exits 1 if any target failed. A crasher is written to its
# package's testdata/fuzz/<Target>/, which plain `go test` (make test) then replays as a regression
# test: commit it with the fix.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-30s}
targets=(
  "./api/donation FuzzCheck"          # public form: card guard, JSON decoding and validation
  "./api/request FuzzJSON"            # every JSON body: middleware limit and decoder
  "./internal/card FuzzContainsCardData"   # the card guard
  "./internal/card FuzzNumber"             # Luhn, brand, CVV, expiry
  "./internal/taxid FuzzValidate"          # tax ids and their check digits
  "./internal/money FuzzParse"             # API amounts
  "./internal/money FuzzFormat"            # amounts for people and for the gateway
  "./workflows/export FuzzCSVWriter"  # CSV cells and formula injection
)
printf 'Fuzzing: %d targets, %s each\n%-46s %12s %8s\n' "${#targets[@]}" "$fuzztime" target execs crashes
total=0 crashes=0
for t in "${targets[@]}"; do
  read -r pkg name _ <<<"$t"
  # Minimising each new input is capped by count: its default, 60 s each, stalls the budget on a busy machine.
  out=$(go test -run '^$' -fuzz "^$name\$" -fuzztime "$fuzztime" -fuzzminimizetime 1000x "$pkg" 2>&1) && failed=0 || failed=1
  execs=$(grep -o 'execs: [0-9]*' <<<"$out" | tail -n 1 | grep -o '[0-9]*$' || true)
  printf '%-46s %12s %8s\n' "${pkg#./} $name" "${execs:-0}" "$failed"
  if ((failed)); then
    # The reason, whatever it is: a crasher (Failing input) or the engine's own failure (a worker that hung or
    # died). No match must not end the script (set -e, pipefail) before the other targets run.
    { grep -E -- '--- FAIL|_test.go|Failing input|failure while|fuzzing process|hung|terminated|^FAIL' <<<"$out" || tail -n 5 <<<"$out"; } |
      head -n 8 | cut -c1-240 | sed 's/^/    /' || true
  fi
  total=$((total + ${execs:-0})) crashes=$((crashes + failed))
done
printf '%-46s %12s %8s   (goal: at least 1000000 executions, 0 crashes)\n' total "$total" "$crashes"
((crashes == 0))
