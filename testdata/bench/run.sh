#!/usr/bin/env bash
# Benchmark agentcards against Hugo on the same N agents, side by side.
#
#   testdata/bench/run.sh [-no-hugo] [-prune] N [RUNS]   (RUNS defaults to 5)
#
# -no-hugo leaves Hugo out (no install, no Hugo build, no ratio to it), for
# sizes where Hugo takes too long (100,000 agents: about 11 minutes a
# build); -prune deletes each run's output folders once its floors are
# measured, for sizes whose outputs would not all fit (about 3 GB each at
# 100,000 agents) on a memory-backed TMPDIR, where deleting is cheap.
#
# Generates N realistic agents (testdata/bench/gen) as agents.toml and as an
# equivalent Hugo site (one page per agent plus the paginated list), then:
#   RUNS times, alternating: (a) a clean agentcards build with an empty lint
#   cache, (b) a clean Hugo build, (a') a clean agentcards build with the
#   lint cache a previous build of the same manifest left, each into a new
#   folder (nothing is deleted while builds are timed); then RUNS times
#   each, agentcards only: (c) a build after a one-word change to one
#   agent's description (incremental), (d) `agentcards verify` of the built
#   site, each followed by the verify floor over the same site (every card
#   read, JCS, each Ed25519 signature checked, on all cores; and the
#   same signatures checked again with their inputs built, Ed25519 alone:
#   testdata/bench/verifyfloor).
# After each clean agentcards build, two floors over that build's output:
# the same tree written from memory on all cores (testdata/bench/writefloor)
# and JCS plus Ed25519 for every signature the cards carry, on all cores
# (testdata/bench/floor), each timed by the program itself.
# Each command is timed with /usr/bin/time -v; prints the median wall time
# and the median peak RSS of each, the floors' medians, the clean-build
# ratios agentcards/Hugo and agentcards/(write floor + sign floor), and
# verify/verify floor; last, the
# top 15 entries by cumulative time of a CPU profile of one more clean build
# (testdata/bench/profile).
# See testdata/bench/README.md.
set -euo pipefail

usage() { echo "usage: $0 [-no-hugo] [-prune] N [RUNS]" >&2; exit 2; }
with_hugo=1 prune=0
while [ $# -gt 0 ]; do
	case $1 in
	-no-hugo) with_hugo=0 ;;
	-prune) prune=1 ;;
	-*) usage ;;
	*) break ;;
	esac
	shift
done
if [ $# -lt 1 ] || [ $# -gt 2 ]; then usage; fi
N=$1
RUNS=${2:-5}
[[ $N =~ ^[1-9][0-9]*$ && $RUNS =~ ^[1-9][0-9]*$ ]] || usage

HUGO_VERSION=0.165.0
repo=$(cd "$(dirname "$0")/../.." && pwd)
bindir=${XDG_CACHE_HOME:-$HOME/.cache}/agentcards-bench/bin
work=$(mktemp -d "${TMPDIR:-/tmp}/agentcards-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

[ -x /usr/bin/time ] || { echo "$0: needs GNU time as /usr/bin/time (Debian package: time)" >&2; exit 1; }
command -v perl >/dev/null || { echo "$0: needs perl" >&2; exit 1; }

# Hugo: the one on PATH if it is v$HUGO_VERSION, else the cached one, else
# install it into the cache (a plain, non-extended build; a few minutes once).
is_wanted_hugo() { "$1" version 2>/dev/null | grep -Eq "^hugo v${HUGO_VERSION//./\\.}([-+ ]|$)"; }
if [ $with_hugo = 0 ]; then
	hugo=
elif hugo=$(command -v hugo) && is_wanted_hugo "$hugo"; then
	:
else
	hugo=$bindir/hugo
	if ! is_wanted_hugo "$hugo"; then
		echo "installing Hugo v$HUGO_VERSION into $bindir (go install; takes a few minutes once)" >&2
		mkdir -p "$bindir"
		(cd "$work" && GOBIN=$bindir go install "github.com/gohugoio/hugo@v$HUGO_VERSION")
		is_wanted_hugo "$hugo" || { echo "$0: $hugo does not report v$HUGO_VERSION" >&2; exit 1; }
	fi
fi

echo "# machine: $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //' || echo unknown)), $(uname -sr)"
echo "# $(go version)"
[ $with_hugo = 0 ] && echo "# hugo: left out (-no-hugo)" || echo "# $("$hugo" version)"
echo "# agentcards: $(cd "$repo" && git rev-parse --short HEAD 2>/dev/null || echo unknown)$(cd "$repo" && git diff --quiet HEAD -- 2>/dev/null || echo ' (with uncommitted changes)'), $repo"
echo "# work folder: $work ($(df -PT "$work" | awk 'NR==2 {print $2}'))"

ac=$work/agentcards
(cd "$repo" && go build -o "$ac" ./cmd/agentcards &&
	go build -o "$work/floor" ./testdata/bench/floor &&
	go build -o "$work/writefloor" ./testdata/bench/writefloor &&
	go build -o "$work/verifyfloor" ./testdata/bench/verifyfloor &&
	go build -o "$work/profile" ./testdata/bench/profile)
in=$work/in
(cd "$repo" && go run ./testdata/bench/gen -n "$N" -o "$in")
cd "$in"

# measure NAME CMD...: runs CMD under /usr/bin/time -v (output to
# /dev/null, errors shown only if it fails) and appends
# "wall-seconds peak-RSS-KiB" to $work/NAME.
measure() {
	local name=$1
	shift
	if ! /usr/bin/time -v -o "$work/time" "$@" >/dev/null 2>"$work/stderr"; then
		echo "$0: failed: $*" >&2
		cat "$work/stderr" "$work/time" >&2
		exit 1
	fi
	awk -F': ' '
		/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i] }
		/Maximum resident set size/ { rss = $2 }
		END { if (s == "" || rss == "") exit 1; print s, rss }' "$work/time" >>"$work/$name"
}

# The lint cache (site/docs/lint.md) lives in the user's cache directory:
# $work/cache/warm is the one every warm build shares; each cold build gets
# a new, empty one.
ac_build=(env -u CI XDG_CACHE_HOME="$work/cache/warm" "$ac" build -manifest "$in/agents.toml" -out "$in/public")
hugo_build=("$hugo" --quiet --source "$in/hugo")
# Untimed warm-up (the work folder is new): makes the development key, fills
# the page cache with both programs and their inputs, and fails early if
# either cannot build.
measure warmup "${ac_build[@]}"
[ $with_hugo = 0 ] || measure warmup "${hugo_build[@]}"

# Each clean build writes into a folder of its own, and nothing is deleted
# until the end: on ext4 without a journal, creating files just after many
# were deleted nearby is slow (the inode allocator passes over recently
# deleted inodes, one by one), which would time the deletion, not the build.
for i in $(seq "$RUNS"); do
	sync
	measure clean env -u CI XDG_CACHE_HOME="$work/cache/cold-$i" "$ac" build -manifest "$in/agents.toml" -out "$in/clean/ac-$i/public"
	if [ $with_hugo = 1 ]; then
		sync
		measure hugo "$hugo" --quiet --source "$in/hugo" --destination "$in/clean/hugo-$i"
	fi
	sync
	measure warm env -u CI XDG_CACHE_HOME="$work/cache/warm" "$ac" build -manifest "$in/agents.toml" -out "$in/clean/warm-$i/public"
	diff -rq "$in/clean/ac-$i/public" "$in/clean/warm-$i/public" >/dev/null ||
		{ echo "$0: the builds with a cold and a warm lint cache differ" >&2; exit 1; }
	[ $prune = 0 ] || rm -rf "$in/clean/warm-$i"
	# The floors over this run's output, each timed by the program itself
	# (both read their input first, untimed). The file-system floor: the
	# same files and folders written from memory on all cores into a new
	# folder, computing nothing. The computing floor: JCS and Ed25519 for
	# each signature of each card (over the card or its SDK projection),
	# all cores.
	sync
	"$work/writefloor" "$in/clean/ac-$i/public" "$in/clean/writefloor-$i" >"$work/out"
	read -r write_s write_files write_bytes <"$work/out"
	sync
	"$work/floor" "$in/clean/ac-$i/public" >"$work/out"
	read -r sign_s _ <"$work/out"
	echo "$write_s 0" >>"$work/write"
	echo "$sign_s 0" >>"$work/sign"
	awk -v w="$write_s" -v s="$sign_s" 'BEGIN {print w + s, 0}' >>"$work/floors"
	ac_files=$(find "$in/clean/ac-$i/public" -type f | wc -l)
	[ "$write_files" -eq "$ac_files" ] ||
		{ echo "$0: the write floor wrote $write_files files, the build $ac_files" >&2; exit 1; }
	[ $with_hugo = 0 ] || hugo_files=$(find "$in/clean/hugo-$i" -type f | wc -l)
	[ $prune = 0 ] || rm -rf "$in/clean/ac-$i" "$in/clean/writefloor-$i" "$in/clean/hugo-$i"
done

# One more clean build, untimed, under testdata/bench/profile (the calls
# `agentcards build` makes, under a CPU profile): the profile's top 15
# entries by cumulative time are printed last.
sync
"$work/profile" "$in/agents.toml" "$in/clean/profile/public" "$work/cpu.pprof"
go tool pprof -top -cum -nodecount=15 "$work/profile" "$work/cpu.pprof" 2>/dev/null |
	grep -v '^Build ID:' >"$work/pprof"

# After a clean build the standby tree is missing; one untimed build makes
# both trees current, as they are when someone edits and rebuilds.
measure warmup "${ac_build[@]}"
# (c) Replace the first word of agent N/2's description with a word it has
# never held, so every run is a real change that no tree already holds.
change_words=(Amber Brisk Cobalt Dapper Ember Frosty Gilded Hazel Indigo Jovial)
for i in $(seq "$RUNS"); do
	word=${change_words[$(((i - 1) % ${#change_words[@]}))]}
	[ "$i" -le ${#change_words[@]} ] || word=$word$i
	cp "$in/agents.toml" "$work/before.toml"
	K=$((N / 2)) W=$word perl -0pi -e 's/(\nid = "agent-$ENV{K}"\n(?:[^\[\n][^\n]*\n)*?description = """\n)[A-Za-z0-9]+/$1$ENV{W}/' "$in/agents.toml"
	if cmp -s "$work/before.toml" "$in/agents.toml"; then
		echo "$0: the one-agent change did not apply" >&2
		exit 1
	fi
	sync
	measure change "${ac_build[@]}"
done
grep -q "$word" "$in/public/agents/agent-$((N / 2))/.well-known/agent-card.json" ||
	{ echo "$0: the changed word is not in the built site" >&2; exit 1; }

# (d) Verify every card of the built site against its own JWKS, and after
# each run the verify floor over the same site: every card read, its
# signatures taken out, JCS, and each Ed25519 signature checked (over the
# card or its SDK projection), on all cores, nothing reported
# (testdata/bench/verifyfloor, timed by itself).
for _ in $(seq "$RUNS"); do
	sync
	measure verify env -u CI "$ac" verify "$in/public"
	"$work/verifyfloor" "$in/public" >"$work/out"
	read -r verify_s _ ed_s <"$work/out"
	echo "$verify_s 0" >>"$work/vfloor"
	echo "$ed_s 0" >>"$work/edfloor"
done

median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2)}'; }
col() { awk -v c="$2" '{print $c}' "$work/$1" | median; }
row() { printf '%-40s %8.2f %13.1f\n' "$1" "$(col "$2" 1)" "$(awk -v k="$(col "$2" 2)" 'BEGIN {print k / 1024}')"; }

toml_bytes=$(wc -c <"$in/agents.toml")
echo
echo "# $N agents, medians of $RUNS runs"
echo "# input: agents.toml $toml_bytes bytes ($((toml_bytes / N)) per agent); Hugo content $(find "$in/hugo/content" -type f -exec cat {} + | wc -c) bytes"
echo "# output: agentcards $ac_files files ($write_bytes bytes)$([ $with_hugo = 0 ] || echo ", Hugo $hugo_files files")"
printf '%-40s %8s %13s\n' "" "wall s" "peak RSS MiB"
row "agentcards build, clean (cold lint)" clean
row "agentcards build, clean (warm lint)" warm
[ $with_hugo = 0 ] || row "hugo, clean" hugo
floorrow() { printf '%-40s %8.2f %13s\n' "$1" "$(col "$2" 1)" "-"; }
floorrow "floor: write the output, all cores" write
floorrow "floor: JCS + Ed25519 per signature, all cores" sign
floorrow "floor: write + sign (sum per run)" floors
row "agentcards build, one agent changed" change
row "agentcards verify, whole site" verify
floorrow "floor: verify (read, JCS, Ed25519), all cores" vfloor
floorrow "floor: Ed25519 verify alone, all cores" edfloor
for kind in clean warm; do
	[ $kind = clean ] && label="cold lint cache" || label="warm lint cache"
	[ $with_hugo = 0 ] || printf 'ratio agentcards/hugo, clean build, %s: wall %.2f, peak RSS %.2f\n' "$label" \
		"$(awk -v a="$(col $kind 1)" -v b="$(col hugo 1)" 'BEGIN {print a / b}')" \
		"$(awk -v a="$(col $kind 2)" -v b="$(col hugo 2)" 'BEGIN {print a / b}')"
	printf 'ratio agentcards/(write floor + sign floor), clean build, %s: wall %.2f\n' "$label" \
		"$(awk -v a="$(col $kind 1)" -v b="$(col floors 1)" 'BEGIN {print a / b}')"
done
[ $with_hugo = 0 ] || printf 'ratio (write floor + sign floor)/hugo: wall %.2f\n' \
	"$(awk -v a="$(col floors 1)" -v b="$(col hugo 1)" 'BEGIN {print a / b}')"
printf 'ratio agentcards verify/verify floor: wall %.2f\n' \
	"$(awk -v a="$(col verify 1)" -v b="$(col vfloor 1)" 'BEGIN {print a / b}')"
echo
echo "# CPU profile of one more clean build (testdata/bench/profile): top 15 by cumulative time"
cat "$work/pprof"
