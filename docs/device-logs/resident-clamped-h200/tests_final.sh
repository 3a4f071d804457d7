#!/bin/bash
mkdir -p /tmp/r && xz -dc .devrun/r/a.tar.xz | tar -C /tmp/r -xf -
P=/tmp/r/a; export LD_LIBRARY_PATH=$P; cd $P
./swarm_gpu_tests --gtest_brief=1 > $OUT/swarm_gpu_tests.log 2>&1; echo "swarm_gpu_tests rc=$?"; tail -3 $OUT/swarm_gpu_tests.log
timeout 150 compute-sanitizer --tool memcheck ./swarm_gpu_tests --gtest_filter='Elementwise.OneLaunch*' > $OUT/memcheck_one_launch.log 2>&1; echo "memcheck rc=$?"; tail -3 $OUT/memcheck_one_launch.log
