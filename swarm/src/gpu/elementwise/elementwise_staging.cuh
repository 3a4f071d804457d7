#pragma once
// Where gpu-elementwise's row update reads a row's current x, v and p from.
//
// GlobalRows: straight from global memory, each lane loading its own groups (every architecture).
//
// StagedRows (sm_90, fp32, the persistent kernel, state larger than L2): each warp keeps k_stages
// shared-memory slots, each holding the x, v and p of the rows the warp updates next (its "tile": 32 / width
// consecutive rows, contiguous in all three arrays). One lane fills a slot with three bulk copies
// (`cp.async.bulk`, the copy engine of the Tensor Memory Accelerator) that complete on the slot's mbarrier,
// k_stages - 1 tiles ahead of the one being updated, and sends the next iteration's first tiles before the
// grid barrier. Why: at 100,000 x 100 the per-lane loads left the kernel latency-bound at 4 warps per
// scheduler: a warp loaded its tile, then spent its Philox arithmetic with nothing in flight. Bulk
// copies keep a tile per warp in flight through that arithmetic for three instructions per tile, and the
// row update, no longer holding loads in registers, fits 76 registers: 24 warps per SM instead of 16.
// (Per-lane `cp.async` staging cost more issue than it hid; docs/benchmarks.md, "Design evidence".)
//
// Ordering. The copies write and read through the async proxy, the lanes through the generic one. A slot is
// refilled only after every lane has fenced its own writes to it (`fence.proxy.async.shared::cta`: the new
// positions kept for the personal-best copy) and the warp has met at __syncwarp. A tile's rows were last
// written by this same warp: sent before the grid barrier, each lane fences its row stores
// (`fence.proxy.async.global`) before the __syncwarp that precedes the copies; sent after it, the issuing
// lane fences once the barrier has made the warp's stores visible to it.
#include <cuda/ptx>

#include <cstdint>

namespace swarm::gpu::ew {

// Where the one-launch kernel reads a row's current values from: global memory (GlobalRows), or warp tiles
// staged through shared memory (StagedRows) updated in the segment layout of update_rows or, with no idle
// lanes, as flat tiles (elementwise_flat_tiles.cuh); or flat tiles kept in shared memory for the whole run
// (Resident: ResidentTiles, where the whole state fits). ResidentClamped is Resident for a run whose every iteration
// after the first can take move_resident_tile's loop (fp32, the Clamp rule by min / max, the draws made ahead, no
// padding): a kernel of its own, without the general row update; compiled into one kernel, the two loops slowed
// every resident shape that keeps the general one (docs/benchmarks.md, "Design evidence"). ResidentClampedBox is
// ResidentClamped for a run whose swarms each have one interval in every dimension (the same lower and upper bound,
// so the same velocity limit): the loop keeps the three in registers instead of loading them for every group.
enum class Staging { Global, RowSegments, FlatTiles, Resident, ResidentClamped, ResidentClampedBox };

// The kernels that take move_resident_tile's loop after the first iteration.
constexpr bool clamped_stage(Staging s) { return s == Staging::ResidentClamped || s == Staging::ResidentClampedBox; }

// A row's three source arrays, at the row's first value (x is writable: a staged row's slot takes the new
// position for the personal-best copy).
template <typename Real>
struct RowSource {
    Real* x;
    const Real* v;
    const Real* p;
};

template <typename Real>
struct GlobalRows {
    Real* x;
    const Real* v;
    const Real* p;
    int pitch;
    static constexpr bool k_staged = false;

    __device__ void begin_iteration(int, int) {}
    __device__ void issue_next_iteration(int, int) {}
    __device__ RowSource<Real> acquire(int r, int) const {
        const std::size_t re = static_cast<std::size_t>(r) * pitch;
        return {x + re, v + re, p + re};
    }
    __device__ void release() {}
};

// Slots per warp (one tile in flight while one is updated) and resident blocks the staged kernel is
// compiled for (__launch_bounds__: 76 registers, 24 warps per SM instead of 16): the fastest pair measured;
// four blocks spill.
constexpr int k_stages = 2;
constexpr int k_staged_min_blocks = 3;

// Shared memory of StagedRows for a block of `warps` warps (after the kernel's other dynamic shared memory).
template <typename Real>
constexpr std::size_t staged_bytes(int warps, int rows_per_warp, int pitch) {
    return static_cast<std::size_t>(warps) * k_stages *
           (3 * static_cast<std::size_t>(rows_per_warp) * pitch * sizeof(Real) + sizeof(std::uint64_t));
}

template <typename Real>
struct StagedRows {
    Real* slots;              // k_stages x {x, v, p} x tile values, this warp's
    std::uint64_t* bars;      // k_stages mbarriers, this warp's
    const Real *x, *v, *p;    // global arrays
    int pitch, rows_per_warp; // tile = rows_per_warp rows of pitch values
    int first_row;            // the swarm's first row
    int particles;            // rows of the swarm
    int base, stride;         // this warp's current tile (a particle index) and the step to its next (TileWalk)
    std::uint32_t used = 0;   // tiles this warp has consumed so far (all iterations): slot and parity
    bool ahead = false;       // the next iteration's first tiles are already on their way
    static constexpr bool k_staged = true;

    // Lane 0 of each warp, before the block's first barrier.
    __device__ void init_barriers() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        if ((threadIdx.x & 31) == 0) {
            for (int k = 0; k < k_stages; ++k) cuda::ptx::mbarrier_init(bars + k, 1u);
            cuda::ptx::fence_mbarrier_init(cuda::ptx::sem_release, cuda::ptx::scope_cluster);
        }
#else
        __trap(); // the host selects StagedRows only on sm_90 and later
#endif
    }

    __device__ int tile_values() const { return rows_per_warp * pitch; }

    // Is there a tile of this warp at `tile_base`? The walk's step is negative backward (TileWalk); the
    // warp's first tile lies below the stride, so every base >= 0 on its walk is its own.
    __device__ bool holds(int tile_base) const { return tile_base >= 0 && tile_base < particles; }

    // Lane 0: fills slot `k` with the tile starting at particle `tile_base`.
    __device__ void issue(int k, int tile_base) { issue(k, tile_base, min(rows_per_warp, particles - tile_base)); }

    // Lane 0: fills slot `k` with `rows` rows (at most rows_per_warp) from particle `tile_base` on.
    __device__ void issue(int k, int tile_base, int rows) {
        expect(k, rows);
        copy(k, 0, x, tile_base, rows);
        copy(k, 1, v, tile_base, rows);
        copy(k, 2, p, tile_base, rows);
    }

    // Lane 0, issue() in two parts for one slot and tile (flat tiles: the update is done with v and p a
    // fitness pass before the last read of x). issue_vp arms the mbarrier for all three arrays, so the
    // slot's phase cannot complete before issue_x's copy has landed too, however late that is sent.
    __device__ void issue_vp(int k, int tile_base, int rows) {
        expect(k, rows);
        copy(k, 1, v, tile_base, rows);
        copy(k, 2, p, tile_base, rows);
    }
    __device__ void issue_x(int k, int tile_base, int rows) { copy(k, 0, x, tile_base, rows); }

    __device__ std::uint32_t tile_bytes(int rows) const {
        return static_cast<std::uint32_t>(static_cast<std::size_t>(rows) * pitch * sizeof(Real));
    }
    // Lane 0: slot k's mbarrier expects x, v and p of `rows` rows (this lane's arrival).
    __device__ void expect(int k, int rows) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta, cuda::ptx::space_shared,
                                             bars + k, 3 * tile_bytes(rows));
#endif
    }
    // Lane 0: `rows` rows of `array` from particle `tile_base` on into part `part` (0 x, 1 v, 2 p) of slot k.
    __device__ void copy(int k, int part, const Real* array, int tile_base, int rows) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        const std::size_t src = static_cast<std::size_t>(first_row + tile_base) * pitch;
        Real* dst = slots + (static_cast<std::size_t>(k) * 3 + part) * tile_values();
        cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, dst, array + src,
                                 tile_bytes(rows), bars + k);
#endif
    }

    // The slot of the current tile.
    __device__ int current_slot() const { return static_cast<int>(used % k_stages); }

    // Lane 0: the first k_stages tiles of an iteration.
    __device__ void issue_first(int warp_base, int warp_stride) {
        for (int k = 0; k < k_stages; ++k) {
            const int b = warp_base + k * warp_stride;
            if (holds(b)) issue(static_cast<int>((used + k) % k_stages), b);
        }
    }

    // Every lane of the warp, at the start of an iteration that reads rows (t > 0): the first tiles, unless
    // issue_next_iteration sent them already.
    __device__ void begin_iteration(int warp_base, int warp_stride) {
        base = warp_base;
        stride = warp_stride;
        if (ahead) {
            ahead = false;
            return;
        }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        if ((threadIdx.x & 31) == 0) {
            cuda::ptx::fence_proxy_async(cuda::ptx::space_global);
            issue_first(warp_base, warp_stride);
        }
#endif
    }

    // Every lane, after its last row of an iteration that has a next one: that iteration's first tiles, sent
    // before the grid barrier so that their latency overlaps it. Safe: this warp alone writes these rows,
    // and it has written them; each lane's proxy fence orders its own row stores before the copies.
    __device__ void issue_next_iteration(int warp_base, int warp_stride) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        cuda::ptx::fence_proxy_async(cuda::ptx::space_global);
        __syncwarp();
        if ((threadIdx.x & 31) == 0) issue_first(warp_base, warp_stride);
        ahead = true;
#endif
    }

    // Every lane: waits for the current tile and returns lane row `seg`'s sources (row r unused: the tile
    // order is the loop's order).
    __device__ RowSource<Real> acquire(int, int seg) {
        const int k = static_cast<int>(used % k_stages);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        const std::uint32_t parity = (used / k_stages) & 1u;
        while (!cuda::ptx::mbarrier_try_wait_parity(bars + k, parity)) {
        }
#endif
        Real* slot = slots + static_cast<std::size_t>(k) * 3 * tile_values() + seg * pitch;
        return {slot, slot + tile_values(), slot + 2 * tile_values()};
    }

    // Every lane, after its last read of the current tile: frees the tile's slot and returns it (the next
    // tile's slot becomes current).
    __device__ int next_slot() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        cuda::ptx::fence_proxy_async(cuda::ptx::space_shared); // this lane's slot writes before the refill
#endif
        return next_read_only_slot();
    }

    // Every lane, after its last read of the current tile when no lane has written to it (flat tiles keep
    // their new positions in scratch rows): frees the slot and returns it. No proxy fence: the copies only
    // overwrite values the lanes have read, and __syncwarp orders those reads before lane 0 sends them.
    __device__ int next_read_only_slot() {
        __syncwarp();
        const int k = static_cast<int>(used % k_stages);
        ++used;
        return k;
    }

    // Every lane, after its last read of the current tile: the slot takes the tile k_stages ahead.
    __device__ void release() {
        const int k = next_slot();
        base += stride;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        const int ahead = base + (k_stages - 1) * stride;
        if ((threadIdx.x & 31) == 0 && holds(ahead)) {
            issue(k, ahead);
        }
#endif
    }
};

} // namespace swarm::gpu::ew
