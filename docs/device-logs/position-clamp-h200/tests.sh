#!/bin/bash
# tests.sh: the engine's GPU suites, then compute-sanitizer on the elementwise paths
mkdir -p /tmp/q && xz -dc .devrun/r/b.tar.xz | tar -C /tmp/q -xf -
P=/tmp/q/b; export LD_LIBRARY_PATH=$P; cd $P
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
./swarm_gpu_tests --gtest_brief=1 > $OUT/swarm_gpu_tests.log 2>&1; echo "swarm_gpu_tests rc=$?"; tail -3 $OUT/swarm_gpu_tests.log
./swarm_gpu_cuda_tests --gtest_brief=1 > $OUT/swarm_gpu_cuda_tests.log 2>&1; echo "swarm_gpu_cuda_tests rc=$?"; tail -3 $OUT/swarm_gpu_cuda_tests.log
timeout 250 compute-sanitizer --tool memcheck ./swarm_gpu_tests --gtest_filter='Elementwise.*:*gpu_elementwise*' > $OUT/memcheck_elementwise.log 2>&1; echo "memcheck rc=$?"; tail -3 $OUT/memcheck_elementwise.log
timeout 60 compute-sanitizer --tool memcheck ./swarm_gpu_cuda_tests --gtest_filter="ElementwiseClamp.*" > $OUT/memcheck_clamp.log 2>&1; echo "memcheck clamp rc=$?"; tail -2 $OUT/memcheck_clamp.log
timeout 120 compute-sanitizer --tool racecheck ./swarm_gpu_tests --gtest_filter="Elementwise.OneLaunch*" > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"; tail -2 $OUT/racecheck.log
cd - >/dev/null
O=build/swarm/CMakeFiles/swarm.dir/src/gpu/elementwise/gpu_elementwise.cu.o
cuobjdump -sass $O > /tmp/ew.sass 2>&1; echo "cuobjdump rc=$?"
xz -c /tmp/ew.sass > $OUT/ew.sass.xz; ls -la $OUT/ew.sass.xz
