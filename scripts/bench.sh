#!/usr/bin/env bash
# Performance of testctl (issue 8), measured side by side with baselines taken
# in the same run, because absolute times on shared machines are noise:
#
#   start-up   `testctl version` against a Go hello world (and against a binary
#              that only links the libraries the contract names)
#   mcp        `testctl mcp`'s start to its answer to initialize against
#              `testctl version`; the size of its tools/list answer
#   request    `testctl run get ID -o json` against curl fetching the same URL
#   story      `testctl run report` of a run with 10 failed test cases (the
#              evidence) against `testctl run get` of the same run
#   scale      `run list --all` over 100,000 runs and `testcase list --all`
#              against curl fetching the same pages; peak RSS
#   polling    requests `run wait` sends, how soon it notices the end, faults
#   latency    the failure story with 100 ms per answer (sandbox --latency):
#              run report against run get, run start --wait with and without
#              --evidence, 50 failed test cases' peak RSS (issue 34)
#   ending     how soon a wait's verdict follows the run's end (issue 34)
#   baseline   the time --baseline adds to `run start --wait` at 100 ms of
#              latency: its search runs while the wait goes on
#   size       the stripped release binary and what dominates it
#   Go         benchmarks of decoding and table rendering
#
# It prints a table (goal, measured, ratio, met?) that docs/benchmarks.md
# records. The benchmarks only talk to sandboxes on 127.0.0.1, stopped on
# exit; missing hyperfine and GNU time are installed with apt-get when run as
# root (BENCH_INSTALL=0 never installs: then a timing loop, whose fork adds a
# millisecond or two to every figure and flatters the start-up ratios, and no
# RSS).
#
# Knobs (environment): BENCH_RUNS (runs per command per round, default 100),
# BENCH_ROUNDS (rounds, default 3), BENCH_HISTORY (default 100000),
# BENCH_TESTCASES (test cases created, default 2000), BENCH_PARTS (the parts
# to run, default all: "startup mcp request story scale polling latency
# ending baseline size go"), BENCH_LATENCY_RUNS (runs per command per round of the latency part,
# default 5: each takes a few round trips of 100 ms), BENCH_BEFORE (another
# testctl binary, say main's, measured beside this one in the latency and
# ending parts).
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${BENCH_RUNS:-100}
ROUNDS=${BENCH_ROUNDS:-3}
HISTORY=${BENCH_HISTORY:-100000}
TESTCASES=${BENCH_TESTCASES:-2000}
PARTS=${BENCH_PARTS:-startup mcp request story scale polling latency ending baseline size go}
LATENCY_RUNS=${BENCH_LATENCY_RUNS:-5}
part() { [[ " $PARTS " == *" $1 "* ]]; }
KEY=sandbox-project-key

have() { command -v "$1" >/dev/null 2>&1; }
say() { echo "--- $(date +%T) $*" >&2; }
install_pkg() {
  [ "${BENCH_INSTALL:-1}" = 1 ] && [ "$(id -u)" = 0 ] && have apt-get || return 0
  say "installing $1"
  apt-get install -y "$1" >/dev/null 2>&1 ||
    { apt-get update >/dev/null 2>&1 && apt-get install -y "$1" >/dev/null 2>&1; } || true
}
have hyperfine || install_pkg hyperfine
[ -x /usr/bin/time ] || install_pkg time
have curl || { echo "bench: curl is required" >&2; exit 2; }
# Nothing below may leave the machine: no proxy, loopback only; every
# request and every testctl call has a time limit.
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
CURL=(curl -sS --max-time 60 --noproxy '*' -H "Authorization: Bearer $KEY")

work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------- helpers
rows=()
# row NAME GOAL MEASURED RATIO MET
row() { rows+=("$1|$2|$3|$4|$5"); }
calc() { awk "BEGIN { printf \"%.${2:-2}f\", $1 }"; }
yes_if() { if awk "BEGIN { exit !($1) }"; then echo yes; else echo NO; fi; }
now() { # seconds, without forking when bash has EPOCHREALTIME
  if [ -n "${EPOCHREALTIME:-}" ]; then echo "${EPOCHREALTIME/,/.}"; else calc "$(date +%s%N) / 1e9" 6; fi
}
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print 0; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# measure CMD... prints one median wall time (seconds) per command, in order:
# the median of ROUNDS rounds, the order of the commands rotating between
# rounds so that a change of load does not always hit the same one.
measure() {
  local n=$# r i j
  local -a cmds=("$@") order
  for ((i = 0; i < n; i++)); do : >"$work/m$i"; done
  for ((r = 0; r < ROUNDS; r++)); do
    order=()
    for ((i = 0; i < n; i++)); do order+=($(((i + r) % n))); done
    if have hyperfine; then
      local -a args=()
      for j in "${order[@]}"; do args+=("${cmds[j]}"); done
      # -i: a command may exit non-zero by design (a failed run's verdict).
      hyperfine -N -i -w 5 -r "$RUNS" --export-csv "$work/h.csv" "${args[@]}" >/dev/null 2>&1
      # command,mean,stddev,median,user,system,min,max: the median is 5th from the end.
      i=0
      while read -r med; do echo "$med" >>"$work/m${order[i]}"; i=$((i + 1)); done \
        < <(awk -F, 'NR > 1 { print $(NF - 4) }' "$work/h.csv")
    else
      local k t0 t1
      for ((k = 0; k < RUNS; k++)); do
        for j in "${order[@]}"; do
          t0=$(now); eval "${cmds[j]}" >/dev/null 2>&1 </dev/null; t1=$(now)
          calc "$t1 - $t0" 6 >>"$work/t$j"; echo >>"$work/t$j"
        done
      done
      for j in "${order[@]}"; do median <"$work/t$j" >>"$work/m$j"; : >"$work/t$j"; done
    fi
  done
  for ((i = 0; i < n; i++)); do median <"$work/m$i"; done
}
ms() { calc "$1 * 1000" "${2:-2}"; }

# start_sandbox NAME FLAGS...: serves on a free loopback port; sets URL_NAME.
start_sandbox() {
  local name=$1 i url=""
  shift
  "$work/testctl" sandbox --addr 127.0.0.1:0 "$@" >/dev/null 2>"$work/$name.log" &
  pids+=($!)
  for ((i = 0; i < 100; i++)); do
    url=$(sed -n 's|^Sandbox serving the emulated service at \(http://127\.0\.0\.1:[0-9]*\)$|\1|p' "$work/$name.log")
    [ -n "$url" ] && break
    sleep 0.1
  done
  [ -n "$url" ] || { echo "bench: sandbox $name did not start:" >&2; cat "$work/$name.log" >&2; exit 1; }
  printf -v "URL_$name" '%s' "$url"
}
# stat_of URL KEY: one counter of GET /_sandbox/stats ("GET /v1/run/{shortId}", faultsInjected).
stat_of() {
  curl -sS --max-time 10 --noproxy '*' "$1/_sandbox/stats" | tr -d '\n' |
    sed -n "s|.*\"$2\": *\([0-9]*\).*|\1|p" | awk '{ print $1 + 0 } END { if (NR == 0) print 0 }'
}
peak() { # peak RSS (MB, from GNU time) and wall (s) of a command: "MB s"
  local t0 t1 rss=n/a
  t0=$(now)
  # A command may exit non-zero by design (a failed run's verdict).
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f '%M' -o "$work/rss" "$@" >"$work/out" 2>"$work/err" || true
  else
    "$@" >"$work/out" 2>"$work/err" || true
  fi
  t1=$(now)
  # The last line: GNU time says first when the command exited non-zero.
  [ ! -s "$work/rss" ] || rss=$(awk 'END { printf "%.1f", $1 / 1024 }' "$work/rss")
  echo "$rss $(calc "$t1 - $t0" 3)"
}

# ------------------------------------------------------------------ build
say "building testctl, a hello world and a libraries-only floor"
export CGO_ENABLED=0 GOFLAGS="${GOFLAGS:-} -buildvcs=false"
go build -trimpath -ldflags '-s -w' -o "$work/testctl" .
go build -trimpath -o "$work/testctl-syms" .
mkdir -p "$work/hello" "$work/floor"
printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello") }\n' >"$work/hello/main.go"
printf 'module hello\n\ngo 1.22\n' >"$work/hello/go.mod"
(cd "$work/hello" && go build -trimpath -ldflags '-s -w' -o "$work/hello-bin" .)
# The floor links the libraries testctl uses and prints hello: its start-up is
# what those libraries' package initialisation costs before testctl runs.
cat >"$work/floor/floor.go" <<'EOF'
package main

import (
	"fmt"
	_ "net/http"

	_ "github.com/briandowns/spinner"
	_ "github.com/charmbracelet/lipgloss"
	_ "github.com/itchyny/gojq"
	_ "github.com/modelcontextprotocol/go-sdk/mcp"
	_ "github.com/olekukonko/tablewriter"
	_ "github.com/spf13/cobra"
	_ "github.com/spf13/viper"
	_ "go.yaml.in/yaml/v3"
)

func main() { fmt.Println("hello") }
EOF
go build -trimpath -ldflags '-s -w' -o "$work/floor-bin" "$work/floor/floor.go"
# mcpstart N INPUT BIN ARGS...: the median time, over N starts, from
# starting BIN to the first line on its stdout, with INPUT's line written to
# its stdin and stdin left open until then ("-": none): `testctl mcp` ends
# at the end of its input without answering, as a server whose client left.
mkdir -p "$work/mcpstart"
printf 'module mcpstart\n\ngo 1.22\n' >"$work/mcpstart/go.mod"
cat >"$work/mcpstart/main.go" <<'EOF'
package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"time"
)

func main() {
	n, _ := strconv.Atoi(os.Args[1])
	var input []byte
	if os.Args[2] != "-" {
		input, _ = os.ReadFile(os.Args[2])
	}
	var times []float64
	for range n {
		cmd := exec.Command(os.Args[3], os.Args[4:]...)
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		t0 := time.Now()
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		stdin.Write(input)
		if _, err := bufio.NewReader(stdout).ReadString('\n'); err != nil {
			fmt.Fprintln(os.Stderr, "no answer:", err)
			os.Exit(1)
		}
		times = append(times, time.Since(t0).Seconds())
		stdin.Close()
		cmd.Wait()
	}
	slices.Sort(times)
	fmt.Printf("%.6f\n", times[len(times)/2])
}
EOF
# The story's floor: the requests of run report's failure story and nothing
# else, from the standard library alone: the run, then the two logs of each
# test case that did not pass, eight at a time over kept-alive connections,
# every log read to its end and thrown away (nothing decoded, nothing
# printed). What these round trips cost any Go client on this machine, the
# sandbox sharing its CPUs; given "run" after the run, it reads the run alone.
mkdir -p "$work/storyfloor"
printf 'module storyfloor\n\ngo 1.22\n' >"$work/storyfloor/go.mod"
cat >"$work/storyfloor/main.go" <<'EOF'
package main

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"sync"
)

func main() {
	base, run := os.Getenv("TESTCTL_BASE_URL"), os.Args[1]
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxConnsPerHost, tr.MaxIdleConnsPerHost = 8, 8
	get := func(path string, out any) {
		req, _ := http.NewRequest("GET", base+path, nil)
		req.Header.Set("Authorization", "Bearer "+os.Getenv("TESTCTL_API_KEY"))
		resp, err := tr.RoundTrip(req)
		if err != nil {
			panic(err)
		}
		defer resp.Body.Close()
		if out == nil {
			_, err = io.Copy(io.Discard, resp.Body)
		} else {
			err = json.NewDecoder(resp.Body).Decode(out)
		}
		if err != nil {
			panic(err)
		}
	}
	var detail struct {
		RunTestCases []struct{ ShortID, Result string }
	}
	get("/v1/run/"+run+"?testCases=all&issues=true", &detail)
	if len(os.Args) > 2 { // "run": the run alone, the floor of run get
		return
	}
	paths := make(chan string)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range paths {
				get(p, nil)
			}
		}()
	}
	for _, tc := range detail.RunTestCases {
		if tc.Result == "FAILED" || tc.Result == "ERROR" {
			paths <- "/v1/run-test-case/" + tc.ShortID + "/logs?kind=network&statusFilter=errors"
			paths <- "/v1/run-test-case/" + tc.ShortID + "/logs?kind=console&includeWarnings=true"
		}
	}
	close(paths)
	wg.Wait()
}
EOF
(cd "$work/storyfloor" && go build -trimpath -ldflags '-s -w' -o "$work/storyfloor-bin" .)

# Settings come from the environment only: no config file, no profile.
unset TESTCTL_PROFILE TESTCTL_OUTPUT TESTCTL_DEBUG TESTCTL_PROJECT TESTCTL_LEGACY_BASE_URL NO_COLOR
export TESTCTL_CONFIG="$work/no-config/config.yaml" TESTCTL_API_KEY=$KEY
T="$work/testctl"

# --------------------------------------------------------------- start-up
if part startup; then
say "start-up ($ROUNDS rounds x $RUNS runs)"
mapfile -t m < <(measure "$work/hello-bin" "$work/floor-bin" "$T version" "$T --help" "$T completion bash")
row "start: hello world (baseline)" "-" "$(ms "${m[0]}") ms" "1.00" "-"
row "start: libraries only, empty main" "-" "$(ms "${m[1]}") ms" "$(calc "${m[1]} / ${m[0]}")" "-"
r=$(calc "${m[2]} / ${m[0]}")
row "start: testctl version" "<= 2x hello" "$(ms "${m[2]}") ms" "$r" "$(yes_if "$r <= 2")"
row "start: testctl version vs libraries only" "-" "$(ms "${m[2]}") ms" "$(calc "${m[2]} / ${m[1]}")" "-"
row "start: testctl --help" "<= 2x hello" "$(ms "${m[3]}") ms" "$(calc "${m[3]} / ${m[0]}")" "$(yes_if "${m[3]} <= 2 * ${m[0]}")"
row "start: testctl completion bash" "<= 2x hello" "$(ms "${m[4]}") ms" "$(calc "${m[4]} / ${m[0]}")" "$(yes_if "${m[4]} <= 2 * ${m[0]}")"
fi

# -------------------------------------------------------------------- mcp
# `testctl mcp` (issue 32): from its start to its answer to initialize
# against `testctl version`'s start to its line, both timed the same way
# (mcpstart), in alternating rounds; and the size of the tools/list answer.
if part mcp; then
# Built only for this part: the other parts need no MCP client.
(cd "$work/mcpstart" && go build -trimpath -o "$work/mcpstart-bin" .)
say "mcp ($ROUNDS rounds x $RUNS runs)"
init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}'
echo "$init" >"$work/mcp-init.jsonl"
: >"$work/mv"; : >"$work/mm"
for ((r = 0; r < ROUNDS; r++)); do
  "$work/mcpstart-bin" "$RUNS" - "$T" version >>"$work/mv"
  "$work/mcpstart-bin" "$RUNS" "$work/mcp-init.jsonl" "$T" mcp >>"$work/mm"
done
v=$(median <"$work/mv"); mc=$(median <"$work/mm"); r=$(calc "$mc / $v")
row "mcp: testctl version, start to its line (baseline)" "-" "$(ms "$v") ms" "1.00" "-"
row "mcp: testctl mcp, start to initialize answered" "<= 1.5x version" "$(ms "$mc") ms" "$r" "$(yes_if "$r <= 1.5")"
for mode in "" "--read-only"; do
  list=$( (printf '%s\n' "$init" '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
    '{"jsonrpc":"2.0","id":2,"method":"tools/list"}'; sleep 2) | "$T" mcp $mode 2>/dev/null | grep '"id":2,' | wc -c)
  row "mcp: tools/list answer${mode:+ ($mode)}" "-" "$(calc "$list / 1024" 1) kB" "-" "-"
done
fi

# ---------------------------------------------------------------- request
if part request || part scale; then
say "sandbox with $HISTORY runs of history"
start_sandbox big --history "$HISTORY"
export TESTCTL_BASE_URL=$URL_big
fi
if part request; then
id=$("${CURL[@]}" "$URL_big/v1/run?limit=1" | sed -n 's|.*"shortId": *"\([^"]*\)".*|\1|p' | awk 'NR == 1')
[ -n "$id" ] || { echo "bench: no run in the sandbox's history" >&2; exit 1; }
say "request overhead: run get $id"
mapfile -t m < <(measure "$T run get $id -o json" \
  "curl -sS --noproxy '*' -H 'Authorization: Bearer $KEY' '$URL_big/v1/run/$id?testCases=all'")
r=$(calc "${m[0]} / ${m[1]}")
row "request: curl GET run detail (baseline)" "-" "$(ms "${m[1]}") ms" "1.00" "-"
row "request: testctl run get -o json" "<= 1.5x curl" "$(ms "${m[0]}") ms" "$r" "$(yes_if "$r <= 1.5")"
fi

# ------------------------------------------------------------------ story
# requests_of URL: every request the sandbox at URL has seen, any route.
requests_of() {
  curl -sS --max-time 10 --noproxy '*' "$1/_sandbox/stats" | tr -d ' \n' |
    sed -n 's/.*"requests":{\(.*\)},"runsStarted".*/\1/p' | tr ',' '\n' | awk -F: '{ s += $NF } END { print s + 0 }'
}
# The failure story of a run with 10 failed test cases (run report: the run,
# its issues and three logs per failed test case, a few at a time) against
# one run get of the same run.
if part story; then
say "sandbox with a plan of 10 failing test cases"
start_sandbox story --failing-test-cases 10 --speed 100
sid=$(TESTCTL_BASE_URL=$URL_story timeout 120 "$T" run start --plan pln-regressions_sandbox --wait --evidence 0 -q 2>/dev/null || true)
sid=$(echo "$sid" | head -n 1)
[ -n "$sid" ] || { echo "bench: the regressions run did not start" >&2; exit 1; }
before=$(requests_of "$URL_story")
TESTCTL_BASE_URL=$URL_story "$T" run report "$sid" >/dev/null 2>&1 || true
after=$(requests_of "$URL_story")
n=$((after - before - 1)) # the stats read in between counts one
say "failure story: run report $sid ($n requests) vs run get"
mapfile -t m < <(measure "env TESTCTL_BASE_URL=$URL_story $T run report $sid" "env TESTCTL_BASE_URL=$URL_story $T run get $sid -o json" \
  "env TESTCTL_BASE_URL=$URL_story $work/storyfloor-bin $sid" "env TESTCTL_BASE_URL=$URL_story $work/storyfloor-bin $sid run")
r=$(calc "${m[0]} / ${m[1]}")
row "story: testctl run get, 10 failed test cases (baseline)" "-" "$(ms "${m[1]}") ms" "1.00" "-"
# What the logs add beyond the run, testctl against net/http alone (the
# floor): the goal leaves testctl half a run get for them.
row "story: the logs' cost, net/http alone ($((n - 1)) requests)" "-" "$(ms "$(calc "${m[2]} - ${m[3]}" 6)") ms" "$(calc "(${m[2]} - ${m[3]}) / ${m[1]}")" "-"
row "story: the logs' cost, testctl (gathered, shown)" "-" "$(ms "$(calc "${m[0]} - ${m[1]}" 6)") ms" "$(calc "(${m[0]} - ${m[1]}) / ${m[1]}")" "-"
row "story: testctl run report, $n requests" "<= 1.5x run get" "$(ms "${m[0]}") ms" "$r" "$(yes_if "$r <= 1.5")"
fi

# ------------------------------------------------------------------ scale
# list_bench NAME PATH PAGE TOTAL GOAL TESTCTL-ARGS...: testctl's wall and
# peak RSS, a curl process per page (as a shell script pages), and one curl
# process fetching every page over a kept-alive connection; GOAL is the
# largest ratio to that one curl process ("-": none).
list_bench() {
  local name=$1 path=$2 page=$3 total=$4 goal=$5 r off t0 t1 items
  shift 5
  : >"$work/urls"
  for ((off = 0; off < total; off += page)); do
    echo "url = \"$URL_big$path?limit=$page&offset=$off\"" >>"$work/urls"
  done
  local -a tt=() tr=() tl=() t1c=()
  for ((r = 0; r < ROUNDS; r++)); do
    read -r rss wall < <(peak timeout 600 "$T" "$@")
    tr+=("$rss"); tt+=("$wall")
    items=$(grep -c '^    {' "$work/out" || true)
    t0=$(now)
    for ((off = 0; off < total; off += page)); do
      "${CURL[@]}" "$URL_big$path?limit=$page&offset=$off" >/dev/null
    done
    t1=$(now); tl+=("$(calc "$t1 - $t0" 3)")
    t0=$(now); "${CURL[@]}" -K "$work/urls" >/dev/null; t1=$(now); t1c+=("$(calc "$t1 - $t0" 3)")
  done
  local w l o p
  w=$(printf '%s\n' "${tt[@]}" | median); l=$(printf '%s\n' "${tl[@]}" | median)
  o=$(printf '%s\n' "${t1c[@]}" | median); p=$(printf '%s\n' "${tr[@]}" | median)
  local pages=$(((total + page - 1) / page))
  row "$name: curl, a process per page (baseline)" "-" "$(calc "$l") s" "1.00" "-"
  row "$name: curl, one process, keep-alive" "-" "$(calc "$o") s" "$(calc "$o / $l")" "-"
  row "$name: testctl ($items items, $pages pages)" "<= 2x curl" "$(calc "$w") s" "$(calc "$w / $l")" "$(yes_if "$w <= 2 * $l")"
  if [ "$goal" = - ]; then
    row "$name: testctl vs one curl process" "-" "$(calc "$w") s" "$(calc "$w / $o")" "-"
  else
    row "$name: testctl vs one curl process" "<= ${goal}x one curl" "$(calc "$w") s" "$(calc "$w / $o")" "$(yes_if "$w <= $goal * $o")"
  fi
  row "$name: testctl peak RSS" "< 50 MB" "$p MB" "-" "$(if [ "$p" = n/a ]; then echo n/a; else yes_if "$p < 50"; fi)"
}
if part scale; then
total=$("${CURL[@]}" "$URL_big/v1/run?limit=1" | tr -d '\n' | sed -n 's|.*"total": *\([0-9]*\).*|\1|p')
say "scale: run list --all over $total runs ($ROUNDS rounds)"
list_bench "run list --all" /v1/run 100 "$total" 1.2 run list --all -o json

say "scale: creating $TESTCASES test cases"
: >"$work/create"
for ((i = 1; i <= TESTCASES; i++)); do
  [ "$i" -gt 1 ] && echo "next" >>"$work/create"
  printf 'url = "%s/v1/test-cases"\ndata = "{\\"name\\":\\"bench case %d\\",\\"goal\\":\\"Open item %d and check its price\\",\\"applicationShortId\\":\\"app_sandbox-web\\"}"\nheader = "Content-Type: application/json"\nheader = "Authorization: Bearer %s"\noutput = "/dev/null"\n' \
    "$URL_big" "$i" "$i" "$KEY" >>"$work/create"
done
# One curl process; "next" resets options, so each request names its headers.
curl -sS --max-time 60 --noproxy '*' -K "$work/create"
total=$("${CURL[@]}" "$URL_big/v1/test-cases?limit=1" | tr -d '\n' | sed -n 's|.*"total": *\([0-9]*\).*|\1|p')
say "scale: testcase list --all over $total test cases"
# Pages of 100, as testcase list --all asks for (pkg/paginate).
list_bench "testcase list --all" /v1/test-cases 100 "$total" - testcase list --all -o json
fi

# ---------------------------------------------------------------- polling
# wait_bench NAME PLAN WATCH FLAGS...: starts PLAN on a fresh sandbox, waits
# with --interval 1s and counts the GET /v1/run/{shortId} that reached the
# sandbox. With WATCH=1 it also measures how long after the run ended testctl
# returned; the end is seen by a 50 ms curl poll of the run list, a route
# testctl does not use (so not with faults: they would hit the watcher too).
wait_bench() {
  local name=$1 plan=$2 watch=$3 i=0 id=""
  shift 3
  start_sandbox "$name" "$@"
  local url_var="URL_$name"
  local url=${!url_var}
  while [ -z "$id" ] && [ $i -lt 30 ]; do # faults strike before a POST is handled: try again
    id=$(TESTCTL_BASE_URL=$url timeout 60 "$T" run start --plan "$plan" -q 2>/dev/null || true)
    i=$((i + 1))
  done
  [ -n "$id" ] || { echo "bench: could not start $plan on $name" >&2; exit 1; }
  local before faults0 t0 t1 code watcher=""
  before=$(stat_of "$url" 'GET /v1/run/{shortId}')
  faults0=$(stat_of "$url" faultsInjected)
  if [ "$watch" = 1 ]; then
    ( # bounded to 2 minutes
      for ((i = 0; i < 2400; i++)); do
        if curl -sS --max-time 5 --noproxy '*' -H "Authorization: Bearer $KEY" "$url/v1/run?limit=5" 2>/dev/null | tr -d '\n ' |
          grep -c "\"shortId\":\"$id\",\"status\":\"\(COMPLETED\|ERROR\|CANCELLED\)\"" >/dev/null; then
          now >"$work/$name.done"
          exit 0
        fi
        sleep 0.05
      done
    ) &
    watcher=$!
    pids+=("$watcher")
  fi
  t0=$(now)
  code=0
  TESTCTL_BASE_URL=$url timeout 300 "$T" run wait "$id" --interval 1s >/dev/null 2>&1 || code=$?
  t1=$(now)
  [ -z "$watcher" ] || wait "$watcher" 2>/dev/null || true
  local reqs faults elapsed budget late
  reqs=$(($(stat_of "$url" 'GET /v1/run/{shortId}') - before))
  faults=$(($(stat_of "$url" faultsInjected) - faults0))
  elapsed=$(calc "$t1 - $t0")
  budget=$(awk "BEGIN { print int($elapsed / 1) + 1 + $faults }")
  row "wait: $plan $* (exit $code)" "<= elapsed/interval + 1 + retries" \
    "$reqs requests in $elapsed s, $faults faults" "$reqs/$budget" "$(yes_if "$reqs <= $budget")"
  if [ -s "$work/$name.done" ]; then
    # The watcher polls every 50 ms: testctl may see the end first.
    late=$(calc "$t1 - $(cat "$work/$name.done")")
    late=$(calc "$late < 0 ? 0 : $late")
    row "wait: $plan $*: end noticed after" "<= 1 interval (1 s)" "$late s" "-" "$(yes_if "$late <= 1")"
  fi
}
# ---------------------------------------------------------------- baseline
# --baseline looks up each plan's baseline run (a page of the run list, then
# the run with its test cases) from the start of the wait: the goal is that
# it adds no more than one request's time (100 ms here) after the run ends.
if part baseline; then
say "sandbox at 100 ms of latency, for --baseline"
start_sandbox latency --latency 100ms --speed 1000
bl="env TESTCTL_BASE_URL=$URL_latency $T run start --plan pln-baseline_sandbox --branch feature --wait --interval 100ms --evidence 0 -q"
mapfile -t m < <(measure "$bl" "$bl --baseline main")
extra=$(calc "${m[1]} - ${m[0]}" 6)
row "baseline: run start --wait at 100 ms latency" "-" "$(ms "${m[0]}") ms" "1.00" "-"
row "baseline: what --baseline main adds" "<= 1 request (100 ms)" "$(ms "$extra") ms" "$(calc "$extra / 0.1")" "$(yes_if "$extra <= 0.1")"
fi

if part polling; then
say "polling: run wait --interval 1s"
# At --speed 3 the plan ends at about 3.3 s, between two polls.
wait_bench poll pln-passing_sandbox 1 --speed 3
wait_bench faults pln-passing_sandbox 0 --fault-rate 0.3 --seed 7
fi

# ---------------------------------------------------------------- latency
# The failure story where users are: every answer 100 ms away (issue 34).
# Each figure is a ratio to a baseline measured in the same call. With
# BENCH_BEFORE=path/to/an/older/testctl, its figures are printed beside.
if part latency; then
LAT=100ms
bins=("$T")
[ -z "${BENCH_BEFORE:-}" ] || bins+=("$BENCH_BEFORE")
label() { if [ "$1" = "$T" ]; then echo "testctl"; else echo "before"; fi; }
save_runs=$RUNS
RUNS=$LATENCY_RUNS

say "latency: run report against run get, 10 failed test cases, $LAT per answer"
start_sandbox lat --failing-test-cases 10 --speed 100 --latency "$LAT"
sid=$(TESTCTL_BASE_URL=$URL_lat timeout 120 "$T" run start --plan pln-regressions_sandbox --wait --evidence 0 --interval 200ms -q 2>/dev/null | head -n 1 || true)
[ -n "$sid" ] || { echo "bench: the regressions run did not start" >&2; exit 1; }
# Every binary's commands in one measure, so that their rounds alternate
# and a change of load hits them alike.
cmds=()
for b in "${bins[@]}"; do
  cmds+=("env TESTCTL_BASE_URL=$URL_lat $b run report $sid" "env TESTCTL_BASE_URL=$URL_lat $b run get $sid -o json")
done
mapfile -t m < <(measure "${cmds[@]}")
i=0
for b in "${bins[@]}"; do
  row "latency: $(label "$b") run get, 10 failed test cases (baseline)" "-" "$(ms "${m[i + 1]}" 0) ms" "1.00" "-"
  r=$(calc "${m[i]} / ${m[i + 1]}")
  row "latency: $(label "$b") run report, 10 failed test cases" "<= 2.2x run get" "$(ms "${m[i]}" 0) ms" "$r" "$(yes_if "$r <= 2.2")"
  i=$((i + 2))
done

say "latency: run report of 50 failed test cases, --evidence 50: time and peak RSS"
start_sandbox lat50 --failing-test-cases 50 --speed 100 --latency "$LAT"
sid50=$(TESTCTL_BASE_URL=$URL_lat50 timeout 120 "$T" run start --plan pln-regressions_sandbox --wait --evidence 0 --interval 200ms -q 2>/dev/null | head -n 1 || true)
[ -n "$sid50" ] || { echo "bench: the regressions run of 50 did not start" >&2; exit 1; }
cmds=()
for b in "${bins[@]}"; do
  cmds+=("env TESTCTL_BASE_URL=$URL_lat50 $b run get $sid50 -o json" "env TESTCTL_BASE_URL=$URL_lat50 $b run report $sid50 --evidence 50")
done
mapfile -t m < <(measure "${cmds[@]}")
i=0
for b in "${bins[@]}"; do
  read -r rss _ < <(TESTCTL_BASE_URL=$URL_lat50 peak timeout 60 "$b" run report "$sid50" --evidence 50)
  read -r rss10 _ < <(TESTCTL_BASE_URL=$URL_lat peak timeout 60 "$b" run report "$sid")
  row "latency: $(label "$b") run report, 50 failed, --evidence 50" "-" "$(ms "${m[i + 1]}" 0) ms" "$(calc "${m[i + 1]} / ${m[i]}")" "-"
  row "latency: $(label "$b") peak RSS, 50 failed vs 10" "flat" "$rss MB vs $rss10 MB" "-" "-"
  i=$((i + 2))
done

# run start --wait on the same plan with and without the evidence: the
# difference is what the failure story costs after the run has ended. The
# plan's failed test cases end one after another over half a second
# (--speed 10), the last with the run, and the wait polls every 250 ms.
say "latency: run start --wait --evidence 10 against --evidence 0"
start_sandbox latw --failing-test-cases 10 --speed 10 --latency "$LAT"
cmds=()
for b in "${bins[@]}"; do
  cmds+=("env TESTCTL_BASE_URL=$URL_latw $b run start --plan pln-regressions_sandbox --wait --interval 250ms --evidence 0 -q"
    "env TESTCTL_BASE_URL=$URL_latw $b run start --plan pln-regressions_sandbox --wait --interval 250ms --evidence 10 -q"
    "env TESTCTL_BASE_URL=$URL_lat $b run get $sid -o json")
done
mapfile -t m < <(measure "${cmds[@]}")
i=0
for b in "${bins[@]}"; do
  row "latency: $(label "$b") run start --wait --evidence 0 (baseline)" "-" "$(ms "${m[i]}" 0) ms" "1.00" "-"
  d=$(calc "${m[i + 1]} - ${m[i]}" 6)
  row "latency: $(label "$b") --evidence 10 costs, against one run get" "<= 1 request" "$(ms "$d" 0) ms" "$(calc "$d / ${m[i + 2]}")" "$(yes_if "$d <= ${m[i + 2]}")"
  i=$((i + 3))
done
RUNS=$save_runs
fi

# How soon the verdict follows the run's end (issue 34): a run that ends a
# second after its last test case (--run-end-delay 1s: its test cases end
# 10 s in, the run 11 s in), waited on at the default 5 s interval, the wait
# begun 0.5, 2 and 4 s after the start so that its polls fall at different
# places (only the first has a poll between the last test case's end and
# the run's). The end is taken as 11 s after the start returned: the run was
# created a round trip on loopback before (the finishedAt the service gives
# has whole seconds only).
if part ending; then
say "ending: the verdict after the run's end (default interval; about a minute per binary)"
bins=("$T")
[ -z "${BENCH_BEFORE:-}" ] || bins+=("$BENCH_BEFORE")
label() { if [ "$1" = "$T" ]; then echo "testctl"; else echo "before"; fi; }
start_sandbox end --run-end-delay 1s
for b in "${bins[@]}"; do
  lags=()
  for off in 0.5 2 4; do
    id=$(TESTCTL_BASE_URL=$URL_end timeout 60 "$T" run start --plan pln-passing_sandbox -q 2>/dev/null || true)
    t0=$(now)
    [ -n "$id" ] || { echo "bench: could not start pln-passing_sandbox" >&2; exit 1; }
    sleep "$off"
    TESTCTL_BASE_URL=$URL_end timeout 120 "$b" run wait "$id" >/dev/null 2>&1 || true
    t1=$(now)
    lags+=("$(calc "$t1 - $t0 - 11")")
  done
  row "ending: $(label "$b") verdict after the run's end (waits begun 0.5/2/4 s in)" "<= about 1 s" "${lags[0]} / ${lags[1]} / ${lags[2]} s" "-" "-"
done
fi

# ------------------------------------------------------------------- size
if part size; then
say "size"
size=$(stat -c %s "$T")
row "size: stripped release binary" "< 20 MB" "$(calc "$size / 1048576" 1) MB" "-" "$(yes_if "$size < 20 * 1048576")"
if [ "$(go version -m "$T" | grep -Ec 'cobra/doc|go-md2man|blackfriday')" != 0 ]; then linked=yes; else linked=no; fi
row "size: docs generator (cobra/doc) linked" "no" "$linked" "-" "$(if [ $linked = no ]; then echo yes; else echo NO; fi)"
# Code size (symbols of type T) per module, standard packages by area, ours
# split into the emulator and the rest; the largest first.
go tool nm -size -type "$work/testctl-syms" 2>/dev/null | awk '$3 == "T" || $3 == "t" {
    name = $4; sub(/^type:\.[a-z]+\./, "", name); sub(/^go:/, "", name)
    n = split(name, p, "/"); for (i = 1; i <= n; i++) { q[i] = p[i]; sub(/\..*/, "", q[i]) }
    if (name ~ /^github.com\/testctl\/testctl\/pkg\/sandbox/) mod = "testctl: pkg/sandbox (the emulator)"
    else if (name ~ /^github.com\/testctl\/testctl\//) mod = "testctl: commands, client, output"
    else if (p[1] ~ /^(github\.com|golang\.org|go\.yaml\.in)$/ && n >= 3) mod = p[1] "/" p[2] "/" q[3]
    else if (p[1] ~ /\./ && n >= 2) { mod = p[1] "/" p[2]; sub(/\.[^%]*$/, "", mod); gsub(/%2e/, ".", mod) }
    else if (q[1] == "crypto" || q[1] == "vendor" || q[1] == "math" && q[2] == "big") mod = "std: crypto, TLS, x509 (HTTPS)"
    else if (q[1] == "net" || q[1] == "mime") mod = "std: net, net/http"
    else if (q[1] == "runtime" || q[1] == "internal") mod = "std: runtime"
    else if (q[1] == "text" || q[1] == "html") mod = "std: text/template, html/template"
    else if (q[1] == "encoding") mod = "std: encoding/json, xml, asn1"
    else mod = "std: reflect, fmt, time, slices, others"
    size[mod] += $2; total += $2
  } END { for (m in size) printf "%d|%s\n", size[m], m; printf "%d|TOTAL\n", total }' |
  sort -t'|' -k1,1nr >"$work/sizes"
text_total=$(awk -F'|' '$2 == "TOTAL" { print $1 }' "$work/sizes")
awk -F'|' '$2 != "TOTAL" && (++n <= 12 || $2 ~ /sandbox/)' "$work/sizes" | while IFS='|' read -r bytes mod; do
  echo "size: code of $mod|-|$(calc "$bytes / 1024" 0) kB|$(calc "100 * $bytes / $text_total" 1)% of code|-"
done >"$work/sizerows"
while IFS= read -r l; do rows+=("$l"); done <"$work/sizerows"
fi

# --------------------------------------------------------------------- Go
if part go; then
say "Go benchmarks"
gobench() { # gobench PKG REGEXP: "name ms" per benchmark, median of 3
  go test -run '^$' -bench "$2" -benchtime 5x -count 3 "$1" 2>/dev/null |
    awk '/^Benchmark/ { sub(/-[0-9]+$/, "", $1); print $1, $3 / 1e6 }' |
    sort -k1,1 -k2,2g | awk '{ v[$1] = v[$1] " " $2; n[$1]++ } END { for (k in v) { split(substr(v[k], 2), a, " "); print k, a[int((n[k] + 1) / 2)] } }' | sort
}
while read -r name val; do
  case $name in
  *tty) row "go: $name" "< 100 ms" "$(calc "$val" 1) ms" "-" "$(yes_if "$val < 100")" ;;
  *) row "go: $name" "< 100 ms" "$(calc "$val" 1) ms" "-" "$(yes_if "$val < 100")" ;;
  esac
done < <(gobench ./cmd/logs/ 'NetworkTable10k'; gobench ./pkg/output/ 'TableRender10k')
while read -r name val; do
  row "go: $name" "-" "$(calc "$val" 2) ms" "-" "-"
done < <(gobench ./pkg/api/ 'Decode|GetRunLoopback'; gobench ./pkg/output/ 'ListWriterJSON100k'; gobench ./pkg/evidence/ 'EvidenceOfTenFailures')
# The HTML report of 50 test cases with 1,000 network requests each (issue
# #21): the median write time of 3 and the file's size.
read -r val mb < <(go test -run '^$' -bench 'Write50x1000' -benchtime 5x -count 3 ./pkg/htmlreport/ 2>/dev/null |
  awk '/^BenchmarkWrite50x1000/ { print $3 / 1e6, $5 }' | sort -g | awk 'NR == 2')
row "go: HTML report 50 x 1,000 write" "< 300 ms" "$(calc "${val:-0}" 1) ms" "-" "$(yes_if "${val:-1e9} < 300")"
row "go: HTML report 50 x 1,000 size" "< 5 MB" "${mb:-?} MB" "-" "$(yes_if "${mb:-1e9} < 5")"
fi

# ------------------------------------------------------------------ table
echo
echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | awk 'NR == 1')," \
  "$(awk '/MemTotal/ { printf "%.1f GB", $2 / 1048576 }' /proc/meminfo) RAM, load $(cut -d' ' -f1-3 /proc/loadavg) (at the end)," \
  "$(go version | cut -d' ' -f3)"
echo "timing: $(if have hyperfine; then echo "hyperfine $(hyperfine --version | cut -d' ' -f2)"; else echo "shell loop"; fi)," \
  "median of $ROUNDS rounds x $RUNS runs (start-up, request), median of $ROUNDS (scale)"
echo
{
  echo "benchmark|goal|measured|ratio|met"
  echo "---|---|---|---|---"
  printf '%s\n' "${rows[@]}"
} | awk -F'|' '{ for (i = 1; i <= NF; i++) { c[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) } n = NR; f = NF }
  END { for (r = 1; r <= n; r++) { line = "|"; for (i = 1; i <= f; i++) {
    v = c[r, i]; if (v ~ /^-+$/ && r == 2) { v = sprintf("%" w[i] "s", ""); gsub(/ /, "-", v) }
    line = line " " sprintf("%-" w[i] "s", v) " |" } print line } }'
