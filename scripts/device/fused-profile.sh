#!/usr/bin/env bash
# Nsight Compute detail of the tracker's fused search kernel (stall reasons, memory, scheduler) on the GPU
# machine. Usage (repository root there): scripts/device/fused-profile.sh .devrun/lead.tar.xz
set -uo pipefail
pack="$1"
final="${OUT:-$PWD/out}"
mkdir -p "$final" /tmp/st && tar -C /tmp/st -xJf "$pack" && cd /tmp/st/"$(basename "$pack" .tar.xz)" || exit 1
export LD_LIBRARY_PATH=.
timeout 300 ncu --clock-control none --launch-skip 20 --launch-count 1 -k regex:grid_warp \
    --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis \
    --section ComputeWorkloadAnalysis --section LaunchStats --section SourceCounters \
    ./swarmtrack-bench bench --suite tracker --quick >"$final/ncu_fused.txt" 2>&1
grep -vE '^==PROF==|^\|' "$final/ncu_fused.txt" | grep -E 'Stall|stall|Warp Cycles|Issued|Duration|Eligible|Active Warps|L1|L2|Mem|Local|Throughput|Registers|Shared' | head -70
