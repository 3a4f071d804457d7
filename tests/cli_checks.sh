# Sourced by the command-line tests: $tmp, a temporary folder removed on exit (made writable first: some tests take
# the write permission away); fail, 0 until a check fails; check NAME WANT COMMAND..., which runs COMMAND with its
# output in $tmp/out and $tmp/err and wants exit code WANT; one_line_error NAME [WORD], which wants the last
# command's stderr to be exactly one line, "swarmtrack: error: ...", mentioning WORD where given.
tmp="$(mktemp -d)"
trap 'chmod -R u+rw "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
check() {
    local name="$1" want="$2"
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    if [ "$got" != "$want" ]; then
        echo "FAIL $name: exit $got, wanted $want"; cat "$tmp/err" "$tmp/out"; fail=1
    else
        echo "ok   $name"
    fi
}
one_line_error() {
    if [ "$(wc -l <"$tmp/err")" != 1 ] || ! grep -q "^swarmtrack: error: " "$tmp/err"; then
        echo "FAIL $1: stderr is not one error line:"; cat "$tmp/err"; fail=1
    elif [ $# -gt 1 ] && ! grep -q -- "$2" "$tmp/err"; then
        echo "FAIL $1: the error does not mention '$2':"; cat "$tmp/err"; fail=1
    fi
}
