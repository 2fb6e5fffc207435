#!/usr/bin/env bash
# Captures vegeta v12.13.0's reports and encoded results into parse/testdata
# (see ../vegeta-README.md). Run from this folder: ./capture.sh
# Every run is bounded (-duration); the server ends when this script does.
set -euo pipefail
V=${VEGETA:-$HOME/.cache/fairbench/vegeta-v12.13.0/vegeta}
OUT=..
P=vegeta-12.13.0__
TMP=$(mktemp -d)
go build -o "$TMP/server" server.go
coproc SERVER { "$TMP/server"; }
read -r _ PORT <&"${SERVER[0]}"
# A port nothing listens on: bind one, then let it go.
REFUSED=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
trap 'exec {SERVER[1]}>&-; wait; rm -rf "$TMP"' EXIT

# cmd NAME COMMAND...: runs the command, stdout to ../NAME, and writes
# NAME.cmd here with the command line and its exit code (here, not beside
# the capture: the parse tests read every testdata/*_* file as a dump).
cmd() {
	local name=$1
	shift
	local rc=0
	"$@" >"$OUT/$P$name" 2>"$TMP/stderr" || rc=$?
	{
		printf '%s\n' "$CMDLINE"
		echo "# captured as: (command) > $P$name"
		echo "# exit code: $rc"
	} >"$P$name.cmd"
	if [ -s "$TMP/stderr" ]; then cp "$TMP/stderr" "$P$name.stderr"; fi
}

# attack CASE URL FLAGS...: one bounded attack into $TMP/CASE.bin, and its
# command line in $TMP/CASE.attack.
attack() {
	local case=$1 url=$2
	shift 2
	echo "GET $url" | "$V" attack -max-body 0 "$@" -output "$TMP/$case.bin"
	printf 'echo "GET %s" | vegeta attack -max-body 0 %s -output %s.bin' "$url" "$*" "$case" >"$TMP/$case.attack"
}

# reports CASE KINDS...: each report of the results of CASE.
reports() {
	local case=$1
	shift
	local a
	a=$(cat "$TMP/$case.attack")
	for kind in "$@"; do
		case $kind in
		text) CMDLINE="$a; vegeta report -type=text $case.bin" cmd "${case}_text.txt" "$V" report -type=text "$TMP/$case.bin" ;;
		json) CMDLINE="$a; vegeta report -type=json $case.bin" cmd "${case}_json.json" "$V" report -type=json "$TMP/$case.bin" ;;
		hist) CMDLINE="$a; vegeta report -type='hist[0,1ms,2ms,5ms,10ms,50ms]' $case.bin" cmd "${case}_hist.txt" "$V" report -type='hist[0,1ms,2ms,5ms,10ms,50ms]' "$TMP/$case.bin" ;;
		hdrplot) CMDLINE="$a; vegeta report -type=hdrplot $case.bin" cmd "${case}_hdrplot.txt" "$V" report -type=hdrplot "$TMP/$case.bin" ;;
		csv) CMDLINE="$a; vegeta encode -to csv $case.bin" cmd "${case}_results.csv" "$V" encode -to csv "$TMP/$case.bin" ;;
		jsonl) CMDLINE="$a; vegeta encode -to json $case.bin" cmd "${case}_results.json" "$V" encode -to json "$TMP/$case.bin" ;;
		gob) CMDLINE="$a; cat $case.bin" cmd "${case}_results.gob" cat "$TMP/$case.bin" ;;
		rundir) # the run-dir dump: the JSON report, then the histogram report
			CMDLINE="$a; { vegeta report -type=json $case.bin; vegeta report -type='hist[0,1ms,2ms,5ms,10ms,50ms]' $case.bin; }" cmd "${case}_rundir.txt" \
				sh -c '"$1" report -type=json "$2" && "$1" report -type="hist[0,1ms,2ms,5ms,10ms,50ms]" "$2"' sh "$V" "$TMP/$case.bin" ;;
		esac
	done
}

U=http://127.0.0.1:$PORT
attack ok "$U/" -duration=2s -rate=500/s
reports ok text json hist hdrplot csv rundir
attack small "$U/" -duration=200ms -rate=50/s
reports small gob csv
attack refused "http://127.0.0.1:$REFUSED/" -duration=1s -rate=200/s
reports refused text json hist csv rundir
attack timeout "$U/slow" -duration=1s -rate=100/s -timeout=20ms
reports timeout text json hdrplot rundir
attack non2xx "$U/mixed" -duration=2s -rate=200/s -redirects=-1
reports non2xx text json csv jsonl rundir
attack behind "$U/serial" -duration=2s -rate=500/s -max-workers=4
reports behind text json hist csv rundir

# The JSON report with its histogram (-buckets), from the CSV results:
# vegeta report reads them as it reads its gob.
CMDLINE="vegeta report -type=json -buckets '[0,1ms,2ms,5ms,10ms,50ms]' ${P}ok_results.csv" cmd ok_json_buckets.json \
	"$V" report -type=json -buckets '[0,1ms,2ms,5ms,10ms,50ms]' "$OUT/${P}ok_results.csv"
