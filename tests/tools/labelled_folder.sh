# Sourced by the tool tests: fail MESSAGE, and $dir, a temporary folder (removed on exit) holding data/labels.csv with
# one labelled sign and an empty data/images.
fail() { echo "FAIL: $*"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/data/images"
echo "00000.jpg;10;10;40;40;1;prohibitory" >"$dir/data/labels.csv"
