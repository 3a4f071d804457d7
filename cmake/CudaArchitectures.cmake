# Which CUDA architectures to build when the user names none.
#
# A build for the GPU at hand compiles each .cu file once; the fallback list compiles it once per entry, so a
# first build on a machine with a GPU takes half the time of one without. CMake's own "native" fails outright when no
# GPU answers, hence the query first: nvcc's device query (what "native" itself runs) prints the compute
# capabilities of the GPUs present and fails without a driver or a device.
function(swarmtrack_choose_cuda_architectures)
    if(DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT CMAKE_CUDA_ARCHITECTURES STREQUAL "")
        if(CMAKE_CUDA_ARCHITECTURES STREQUAL "${SWARMTRACK_CUDA_ARCHITECTURES_CHOSEN}")
            message(STATUS "swarmtrack: CUDA architectures ${CMAKE_CUDA_ARCHITECTURES} "
                           "(${SWARMTRACK_CUDA_ARCHITECTURES_REASON}, chosen at the first configure)")
        else()
            message(STATUS "swarmtrack: CUDA architectures ${CMAKE_CUDA_ARCHITECTURES} (as given)")
        endif()
        return()
    endif()
    set(nvcc_dir /usr/local/cuda/bin)
    if(CMAKE_CUDA_COMPILER)
        get_filename_component(nvcc_dir "${CMAKE_CUDA_COMPILER}" DIRECTORY)
    endif()
    find_program(SWARMTRACK_NVCC_DEVICE_QUERY __nvcc_device_query HINTS "${nvcc_dir}")
    set(query "${SWARMTRACK_NVCC_DEVICE_QUERY}")
    set(found "")
    if(query)
        execute_process(COMMAND "${query}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_QUIET
                        OUTPUT_STRIP_TRAILING_WHITESPACE TIMEOUT 30)
        if(rc EQUAL 0 AND out MATCHES "^[0-9]+")
            set(found "${out}")
        endif()
    endif()
    if(found)
        # Cached so the choice is made once per build folder; delete the cache entry to ask again.
        set(archs native)
        set(reason "this machine's GPU, compute capability ${found}")
    else()
        set(archs "${SWARMTRACK_CUDA_FALLBACK_ARCHITECTURES}")
        set(reason "no GPU found to build for; -DCMAKE_CUDA_ARCHITECTURES=... chooses")
    endif()
    set(CMAKE_CUDA_ARCHITECTURES "${archs}" CACHE STRING "CUDA architectures to build for" FORCE)
    set(SWARMTRACK_CUDA_ARCHITECTURES_CHOSEN "${archs}" CACHE INTERNAL "")
    set(SWARMTRACK_CUDA_ARCHITECTURES_REASON "${reason}" CACHE INTERNAL "")
    message(STATUS "swarmtrack: CUDA architectures ${archs} (${reason})")
endfunction()
