#!/bin/bash
mkdir -p /tmp/t && xz -dc .devrun/r/t.tar.xz | tar -C /tmp/t -xf -
P=/tmp/t/t; export LD_LIBRARY_PATH=$P SWARMTRACK_ASSETS=$PWD/assets
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
(cd $P && ./tracker_gpu_tests --gtest_brief=1) > $OUT/tracker_gpu_tests.log 2>&1; echo "tracker_gpu_tests rc=$?"; tail -3 $OUT/tracker_gpu_tests.log; grep -E '^\[ gpu scene' $OUT/tracker_gpu_tests.log
(cd $P && timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 ./tracker_gpu_tests --gtest_filter='*Agree*:GpuDeviceFrame*:GpuDetectionTiles*' --gtest_brief=1) > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"; tail -2 $OUT/memcheck.log
