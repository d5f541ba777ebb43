#!/usr/bin/env bash
# Benchmark agentcards against Hugo on the same N agents, side by side.
#
#   testdata/bench/run.sh N [RUNS]
#
# Generates N realistic agents (testdata/bench/gen) as agents.toml and as a
# Hugo site with one page per agent, then, RUNS times, alternates a clean
# agentcards build and a clean Hugo build; then times, RUNS times each, an
# agentcards build after a one-agent change (incremental) and
# `agentcards verify` of the built site. Prints the median wall time and
# the median peak RSS (/usr/bin/time -v) of each, and the ratio to Hugo.
set -euo pipefail

N=${1:?usage: run.sh N [RUNS]}
RUNS=${2:-5}
HUGO_VERSION=0.165.0
repo=$(cd "$(dirname "$0")/../.." && pwd)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/agentcards-bench
work=$(mktemp -d "${TMPDIR:-/tmp}/agentcards-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

hugo=$cache/bin/hugo
if ! "$hugo" version 2>/dev/null | grep -q "v$HUGO_VERSION"; then
	echo "installing Hugo v$HUGO_VERSION into $cache/bin (takes a few minutes once)" >&2
	GOBIN=$cache/bin go install "github.com/gohugoio/hugo@v$HUGO_VERSION"
fi
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package: time)" >&2; exit 1; }

ac=$work/agentcards
(cd "$repo" && go build -o "$ac" ./cmd/agentcards)
(cd "$repo" && go run ./testdata/bench/gen -n "$N" -o "$work/in")
in=$work/in

# measure NAME CMD...: runs CMD in $in, appends "seconds kib" to $work/NAME.
measure() {
	local name=$1
	shift
	/usr/bin/time -f '%e %M' -o "$work/t" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
	cat "$work/t" >>"$work/$name"
}

clean_ac() { rm -rf "$in/public" "$in"/.public.* "$in/.agentcards/cache"; }
clean_hugo() { rm -rf "$in/hugo/public" "$in/hugo/resources"; }

cd "$in"
for _ in $(seq "$RUNS"); do
	clean_ac
	sync
	measure build env -u CI "$ac" build -manifest "$in/agents.toml"
	clean_hugo
	sync
	measure hugo "$hugo" --quiet --source "$in/hugo"
done
# Bring both trees up to date (the standby is empty after a clean build).
env -u CI "$ac" build -manifest "$in/agents.toml" >/dev/null 2>&1
for i in $(seq "$RUNS"); do
	# One word of one agent's description, different every run.
	perl -0pi -e 's/(id = "agent-'$((N / 2))'"\nname = "[^"]*"\nversion = "[^"]*"\ndescription = """\n)\S+/${1}Edit'"$i"'/' "$in/agents.toml"
	measure change env -u CI "$ac" build -manifest "$in/agents.toml"
done
for _ in $(seq "$RUNS"); do
	measure verify "$ac" verify "$in/public"
done
grep -c 'Edit' "$in/agents.toml" >/dev/null || { echo "the one-agent change did not apply" >&2; exit 1; }

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
col() { awk -v c="$2" '{print $c}' "$work/$1" | median; }

echo "# $N agents, $RUNS runs each, medians; $(nproc) cores; $(go version | cut -d' ' -f3); $("$hugo" version | cut -d' ' -f1-2)"
echo "# agents.toml: $(wc -c <"$in/agents.toml") bytes; site: $(find "$in/public" -type f | wc -l) files"
printf '%-34s %10s %12s\n' "" "wall s" "peak RSS MiB"
row() { printf '%-34s %10.2f %12.0f\n' "$1" "$(col "$2" 1)" "$(echo "$(col "$2" 2) / 1024" | bc -l)"; }
row "agentcards build (clean)" build
row "hugo (clean)" hugo
row "agentcards build (one agent changed)" change
row "agentcards verify (whole site)" verify
printf 'ratio agentcards/hugo (clean build): %.2f\n' "$(echo "$(col build 1) / $(col hugo 1)" | bc -l)"
