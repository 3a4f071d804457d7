#pragma once
// gpu-elementwise for a whole unwatched run in one cooperative launch (no history, no early stopping).
// The per-launch design (elementwise_kernel) pays, every iteration, a launch gap, the last-block ticket
// and the global-best copy before the next launch may start, which dominates an L2-resident shape such as
// 5,000 x 200, whose row update is a few microseconds. Here each iteration is
//   phase A: the same row update (update_rows), each block merging its rows' best into its swarm's key
//            keys[t % 3] with one atomicMin (fp32, packed_best.h), or writing it to block_best[t & 1] (fp64);
//   the grid barrier (arrive; the resident form may draw iteration t + 1's random numbers; wait);
//   phase B: every block reads the key (fp32) or reduces its swarm's block results itself (fp64) and, if the
//            swarm best changed, copies that row's personal best into its shared-memory copy of the swarm
//            best position.
// One grid barrier per iteration. Still exactly synchronous: iteration t + 1 moves toward the best of all
// personal bests after iteration t, the same random numbers as cpu-serial.
//
// The one hazard: in phase A of t + 1, the block owning the swarm-best row may improve that row's personal
// best while a slower block is still copying it in phase B of t. Every block counts itself in readers[t % 3]
// after its copy; the owner waits for the full count before that single write (in practice the count is
// long complete: phase B is short, the owner has done a whole row update since). Three counters rotate so
// that the one reset in phase A of t (readers[(t + 1) % 3]) is nobody's: it was last waited on in phase A
// of t - 1 and is next counted in phase B of t + 1, both on the other side of a grid barrier. The keys
// rotate the same way: keys[(t + 1) % 3], reset in phase A of t, was last read in phase B of t - 2.
//
// The packed key (fp32) makes phase B one load instead of a reduction of every block's result, which matters
// most for L2-resident shapes, where the barrier's share is largest (docs/benchmarks.md, "Design evidence").
#include <cooperative_groups.h>

#include <cuda/atomic>

#include <type_traits>

#include "gpu/elementwise/elementwise_flat_tiles.cuh"
#include "gpu/elementwise/packed_best.h"

namespace swarm::gpu::ew {

// Extra state of the persistent kernel; block_best (View, fp64 only) holds 2 x swarms x gridDim.x entries here.
struct PersistentArgs {
    unsigned* readers;             // swarms x 3 counters, zero at launch
    unsigned long long* best_keys; // fp32: swarms x 3 packed block results (pack_best), all ones at launch
    int iterations;                // runs t = 0 (initialisation) .. iterations, as the per-launch path does
    int tile_rows;                 // Staging::FlatTiles and Resident: rows per warp tile (flat_tile_rows)
    int resident_rows;             // Staging::Resident: rows each warp's shared memory holds (SplitTiles::max_rows)
    bool draws_ahead;              // Staging::Resident: the next iteration's draws are made at the grid barrier
};

// Dynamic shared memory: the swarm best position (pitch values); when staged, also copies of the swarm's
// bounds (lo, hi, vmax: 3 x pitch values, read for every group of every row), StagedRows' slots and mbarriers,
// and for flat tiles the warps' scratch rows (flat_scratch_rows); when resident, the warps' rows instead
// (resident_bytes).
template <typename Real>
constexpr std::size_t staging_offset(int pitch) {
    return (4 * static_cast<std::size_t>(pitch) * sizeof(Real) + 127) / 128 * 128;
}
template <typename Real>
constexpr std::size_t resident_bytes(int warps, int rows, int pitch, bool draws_ahead, bool summed_terms) {
    // x, v, p (and the draws); then each warp's pf; then, where summed, each row's 32 lane sums
    return (resident_arrays(draws_ahead) * static_cast<std::size_t>(pitch) + 1) * warps * rows * sizeof(Real) +
           (summed_terms ? static_cast<std::size_t>(warps) * rows * 32 * sizeof(Terms<Real>) : 0);
}

// Stage: where rows come from (Staging; StagedRows on sm_90 and later, one chunk per row; gpu_elementwise.cu
// decides). Alternate: odd iterations walk the rows backward (TileWalk; a state larger than L2, always so
// when staged).
// Unstaged, the kernel is held to 128 registers (two blocks per SM); left free, fp64 takes more and fits one
// block per SM, which measured much slower at 100,000 x 100.
template <Function F, typename Real, Staging Stage, bool Alternate>
__global__ void __launch_bounds__(k_block,
                                  Stage == Staging::FlatTiles || Stage == Staging::Resident || clamped_stage(Stage)
                                      ? k_flat_min_blocks
                                  : Stage == Staging::RowSegments ? k_staged_min_blocks
                                                                  : 2)
    elementwise_persistent_kernel(View<Real> w, PersistentArgs a) {
    constexpr bool Staged = Stage != Staging::Global;
    constexpr bool Resident = Stage == Staging::Resident || clamped_stage(Stage);
    namespace cg = cooperative_groups;
    using Reduce = cub::BlockReduce<ArgMin<Real>, k_block>;
    __shared__ typename Reduce::TempStorage temp;
    __shared__ ArgMin<Real> best; // the swarm best after the last phase B
    __shared__ bool changed;
    extern __shared__ __align__(16) unsigned char dynamic_smem[];
    Real* gb = reinterpret_cast<Real*>(dynamic_smem); // the swarm best position, pitch values

    cg::grid_group grid = cg::this_grid();
    const RunScalars<Real> rs = *w.run;
    const int s = blockIdx.y;
    const unsigned blocks = gridDim.x;
    unsigned* readers = a.readers + 3 * static_cast<std::size_t>(s);
    constexpr bool k_packed = std::is_same_v<Real, float>;
    unsigned long long* keys = a.best_keys + 3 * static_cast<std::size_t>(s);
    const int warp = threadIdx.x >> 5;
    const int rows_per_warp = Stage == Staging::FlatTiles ? a.tile_rows : 32 / w.width;
    auto rows = [&] {
        if constexpr (Resident) {
            const SplitTiles tiles =
                SplitTiles::of(blockIdx.x * k_warps + warp, gridDim.x * k_warps, w.particles, a.tile_rows);
            auto* rows_base = reinterpret_cast<Real*>(dynamic_smem + staging_offset<Real>(w.pitch));
            const std::size_t per_warp =
                static_cast<std::size_t>(resident_arrays(a.draws_ahead)) * a.resident_rows * w.pitch;
            Real* pf_base = rows_base + k_warps * per_warp;
            Real* pf = pf_base + static_cast<std::size_t>(warp) * a.resident_rows;
            // The host sized the shared memory with the same test (resident_plan).
            const bool summed = summed_in_update(F, w.width, w.pitch / 4, clamped_stage(Stage));
            Terms<Real>* terms = summed ? reinterpret_cast<Terms<Real>*>(pf_base + k_warps * a.resident_rows) +
                                              static_cast<std::size_t>(warp) * a.resident_rows * 32
                                        : nullptr;
            return ResidentTiles<Real>{tiles,   tiles.count(),   rows_base + warp * per_warp, pf, terms,
                                       a.resident_rows, w.pitch, a.draws_ahead};
        } else if constexpr (Staged) {
            const int tile = rows_per_warp * w.pitch;
            auto* slots = reinterpret_cast<Real*>(dynamic_smem + staging_offset<Real>(w.pitch));
            auto* bars =
                reinterpret_cast<std::uint64_t*>(slots + static_cast<std::size_t>(k_warps) * k_stages * 3 * tile);
            StagedRows<Real> r{slots + static_cast<std::size_t>(warp) * k_stages * 3 * tile,
                               bars + warp * k_stages,
                               w.x, w.v, w.p, w.pitch, rows_per_warp, s * w.particles, w.particles, 0, 0};
            r.init_barriers();
            if constexpr (Stage == Staging::FlatTiles) {
                const SplitTiles tiles =
                    SplitTiles::of(blockIdx.x * k_warps + warp, gridDim.x * k_warps, w.particles, rows_per_warp);
                Real* scratch = flat_scratch_rows(F) ? reinterpret_cast<Real*>(bars + k_warps * k_stages) +
                                                           static_cast<std::size_t>(warp) * tile
                                                     : nullptr;
                return FlatStagedRows<Real>{r, tiles, tiles.count(), scratch};
            } else {
                return r;
            }
        } else {
            return GlobalRows<Real>{w.x, w.v, w.p, w.pitch};
        }
    }();
    const std::size_t se = static_cast<std::size_t>(s) * w.pitch;
    SwarmVectors<Real> sv{gb, w.lo + se, w.hi + se, w.vmax + se};
    if constexpr (Staged) {
        Real* bounds = gb + w.pitch; // lo, hi, vmax
        for (int d = threadIdx.x; d < w.pitch; d += k_block) {
            bounds[d] = w.lo[se + d];
            bounds[w.pitch + d] = w.hi[se + d];
            bounds[2 * w.pitch + d] = w.vmax[se + d];
        }
        sv = {gb, bounds, bounds + w.pitch, bounds + 2 * w.pitch};
    }
    if (threadIdx.x == 0) best = no_best<Real>();
    __syncthreads();

    for (int t = 0; t <= a.iterations; ++t) {
        // Phase A. The row every block copied in phase B of t - 1; no copy is pending at t = 0.
        const int guarded = t == 0 ? -1 : best.row;
        unsigned* const counted = readers + (t + 2) % 3; // (t - 1) % 3
        const bool last = t == a.iterations;
        auto wait_for_readers = [&](int r) {
            if (r != guarded) return;
            cuda::atomic_ref<unsigned, cuda::thread_scope_device> n(*counted);
            while (n.load(cuda::memory_order_acquire) < blocks) {
            }
        };
        ArgMin<Real> mine;
        if constexpr (Resident || Stage == Staging::FlatTiles) {
            mine = update_flat_tiles<F, Real, clamped_stage(Stage), Stage == Staging::ResidentClampedBox>(
                w, rs, sv, s, t, last, rows, wait_for_readers);
        } else {
            mine = update_rows<F, Real, k_groups_per_lane<Real>, Alternate>(w, rs, sv, s, t, last, rows,
                                                                           wait_for_readers);
        }
        const ArgMin<Real> block = Reduce(temp).Reduce(mine, BetterOf<Real>());
        if (threadIdx.x == 0) {
            if constexpr (k_packed) {
                atomicMin(keys + t % 3, static_cast<unsigned long long>(pack_best(block.f, block.row)));
                if (blockIdx.x == 0) keys[(t + 1) % 3] = k_no_packed_best; // read last in phase B of t - 2
            } else {
                w.block_best[(static_cast<std::size_t>(t & 1) * w.swarms + s) * blocks + blockIdx.x] = block;
            }
            if (blockIdx.x == 0) readers[(t + 1) % 3] = 0u;
        }
        // Every row of every block is final for iteration t once the barrier is passed. Between arriving and
        // waiting, the resident form draws iteration t + 1's random numbers, which need no other block's row.
        cg::grid_group::arrival_token arrived = grid.barrier_arrive();
        if constexpr (Resident) {
            if (rows.draws_ahead && !last) draw_flat_tiles(w, rs.seed, s, t + 1, rows);
        }
        grid.barrier_wait(std::move(arrived));

        // Phase B: each block finds the swarm best itself (no second barrier to publish it).
        ArgMin<Real> m = no_best<Real>();
        if constexpr (k_packed) {
            if (threadIdx.x == 0) { // merged by the blocks' atomicMin: no block reduction
                const UnpackedBest u = unpack_best(__ldcg(keys + t % 3));
                m = {u.f, u.row};
            }
        } else {
            const ArgMin<Real>* results = w.block_best + (static_cast<std::size_t>(t & 1) * w.swarms + s) * blocks;
            for (unsigned j = threadIdx.x; j < blocks; j += k_block) {
                m = better_of(m, ArgMin<Real>{__ldcg(&results[j].f), __ldcg(&results[j].row)});
            }
            m = Reduce(temp).Reduce(m, BetterOf<Real>()); // temp is free: barrier_wait is also a block barrier
        }
        if (threadIdx.x == 0) {
            // Same row and same fitness: that personal best did not move (improvement is strict).
            changed = m.row != best.row || !(m.f == best.f);
            best = m;
        }
        __syncthreads();
        if (changed) {
            const Real* src = w.p + static_cast<std::size_t>(best.row) * w.pitch;
            for (int d = threadIdx.x; d < w.pitch; d += k_block) {
                gb[d] = __ldcg(src + d); // written by other SMs: bypass L1
            }
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            // Release orders this block's copy before the count; a block that copied nothing has nothing to
            // order, and skips the fence (which also waits for its personal-best stores to drain).
            cuda::atomic_ref<unsigned, cuda::thread_scope_device> n(readers[t % 3]);
            n.fetch_add(1u, changed ? cuda::memory_order_release : cuda::memory_order_relaxed);
        }
    }

    if constexpr (Resident) {
        rows.write_back(w.x, w.v, w.pf, static_cast<std::size_t>(s) * w.particles);
    }
    // The result for the host side (unpad_best_kernel) and the stopping check.
    if (blockIdx.x == 0) {
        const std::size_t dst = static_cast<std::size_t>(s) * w.pitch;
        for (int d = threadIdx.x; d < w.pitch; d += k_block) {
            w.gx[dst + d] = gb[d];
        }
        if (threadIdx.x == 0) w.gf[s] = best.f;
    }
}

} // namespace swarm::gpu::ew
