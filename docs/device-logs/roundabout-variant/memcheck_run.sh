#!/usr/bin/env bash
# mc.sh tests | PART: compute-sanitizer memcheck on the tracker's GPU tests that run detection (tests), or on
# `bench --suite real` over the first 6 frames of a dev-set part with the shipped models (variants included).
set -uo pipefail
R=$PWD
cd .devrun && tar xJf r/b.tar.xz
export LD_LIBRARY_PATH=$PWD/b:$PWD/t SWARMTRACK_ASSETS=$R/assets
if [ "$1" = tests ]; then
  tar xJf t.tar.xz
  timeout 500 compute-sanitizer --tool memcheck t/tracker_gpu_tests \
    --gtest_filter='GpuDeviceFrame.*:FusedSearch.*:GpuDetectionTiles.*:GpuCandidateInterval.*:Sizes/GpuAgreement.FitnessMatchesCpuForAllSwarms/*' \
    > $OUT/memcheck_tracker_gpu_tests.txt 2>&1; echo "memcheck tests rc=$? $SECONDS s"; tail -4 $OUT/memcheck_tracker_gpu_tests.txt
else
  tar xf $1.tar
  timeout 500 compute-sanitizer --tool memcheck b/swarmtrack-bench bench --suite real --data $1 --frames 6 --backend cuda \
    > $OUT/memcheck_real_$1.txt 2>&1; echo "memcheck real rc=$? $SECONDS s"; grep -h "ERROR SUMMARY\|any sign" $OUT/memcheck_real_$1.txt | head -3
fi
