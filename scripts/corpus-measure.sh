#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Measures the corpus (fixtures/corpus) on the local GPU with `kforecast bench`, one pair per
# child process, and appends one JSON line per pair to RESULTS:
#   {"family", "reference", "candidate", "reference_file", "candidate_file", "reference_sha256",
#    "candidate_sha256", "date", "exit", "seconds", "measurement": <bench --format json>}
# Order: first every variant against its family's first [[kernel]] (the star, enough to label
# every ordered pair), then the remaining pairs (direct measurements of the same labels). A pair
# already in RESULTS is skipped, so a second run resumes where a time limit stopped the first.
# --family NAME (repeatable) measures only those families, e.g. ones just added to the corpus,
# appending to the same RESULTS as the rest.
#
#   scripts/corpus-measure.sh RESULTS.jsonl [--seconds N] [--star-only] [--family NAME]...
#
# KFORECAST names the binary (default build/release/src/kforecast). Needs a GPU and NVRTC.
set -euo pipefail

results=${1:?usage: corpus-measure.sh RESULTS.jsonl [--seconds N] [--star-only] [--family NAME]...}
shift
limit=0
star_only=0
only=()
while (($#)); do
  case $1 in
    --seconds) limit=$2; shift 2 ;;
    --star-only) star_only=1; shift ;;
    --family)
      [[ -f fixtures/corpus/${2:-}/kforecast.toml ]] || { echo "corpus-measure: no family '${2:-}' in fixtures/corpus" >&2; exit 2; }
      only+=("$2"); shift 2 ;;
    *) echo "corpus-measure: unknown option $1" >&2; exit 2 ;;
  esac
done
kforecast=${KFORECAST:-build/release/src/kforecast}
corpus=fixtures/corpus
touch "$results"
started=$SECONDS

# The families to measure: those named by --family, else all of them.
families() {
  local name
  if ((${#only[@]})); then
    for name in "${only[@]}"; do echo "$corpus/$name/"; done
  else
    for name in "$corpus"/*/; do echo "$name"; done
  fi
}

# The pairs, in measuring order, as "family reference_index candidate_index".
plan() {
  local dir family count i j
  for dir in $(families); do
    family=$(basename "$dir")
    count=$(grep -c '^name = ' "$dir/kforecast.toml")
    for ((j = 1; j < count; j++)); do echo "$family 0 $j"; done
  done
  ((star_only)) && return
  for dir in $(families); do
    family=$(basename "$dir")
    count=$(grep -c '^name = ' "$dir/kforecast.toml")
    for ((i = 1; i < count; i++)); do
      for ((j = i + 1; j < count; j++)); do echo "$family $i $j"; done
    done
  done
}

measured=0
while read -r family i j; do
  if ((limit > 0 && SECONDS - started > limit)); then
    echo "corpus-measure: stopping after ${limit} s; run again to resume" >&2
    break
  fi
  spec="$corpus/$family/kforecast.toml"
  mapfile -t names < <(sed -n 's/^name = "\(.*\)"$/\1/p' "$spec")
  mapfile -t files < <(sed -n 's/^file = "\(.*\)"$/\1/p' "$spec")
  reference=${names[$i]} candidate=${names[$j]}
  if grep -q "\"reference\":\"$reference\",\"candidate\":\"$candidate\"" "$results"; then continue; fi
  echo "corpus-measure: $family: $reference -> $candidate" >&2
  pair_start=$SECONDS
  set +e
  json=$("$kforecast" bench "$corpus/$family/${files[$j]}:$candidate" --vs "$corpus/$family/${files[$i]}:$reference" \
    --config "$spec" --format json 2>/tmp/corpus-measure.err)
  status=$?
  set -e
  [[ -n $json ]] || json=null
  sed 's/^/  /' /tmp/corpus-measure.err >&2
  hash() { sha256sum "$corpus/$family/$1" | cut -d' ' -f1; }
  printf '{"family":"%s","reference":"%s","candidate":"%s","reference_file":"%s","candidate_file":"%s","reference_sha256":"%s","candidate_sha256":"%s","date":"%s","exit":%d,"seconds":%d,"measurement":%s}\n' \
    "$family" "$reference" "$candidate" "${files[$i]}" "${files[$j]}" "$(hash "${files[$i]}")" "$(hash "${files[$j]}")" \
    "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$status" $((SECONDS - pair_start)) \
    "$(tr -d '\n' <<<"$json")" >>"$results"
  measured=$((measured + 1))
done < <(plan)
echo "corpus-measure: $measured pairs measured in $((SECONDS - started)) s; $(wc -l <"$results") in $results" >&2
