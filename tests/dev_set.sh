# Sourced by the tests that read the GTSDB dev set beside the checkout: fail MESSAGE; $tmp, a temporary folder removed
# on exit; need_dev_set DIR, which exits 77 (skipped, naming the folder) where DIR holds no labels.csv and images/.
fail() { echo "FAIL: $*"; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
need_dev_set() {
    if [ ! -f "$1/labels.csv" ] || [ ! -d "$1/images" ]; then
        echo "SKIP: no dev set at $1 (the folder shared/data/gtsdb-dev beside the checkout)"
        exit 77
    fi
}
