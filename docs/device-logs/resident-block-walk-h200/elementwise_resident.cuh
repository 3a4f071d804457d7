#pragma once
// The resident form's row update with the block's groups dealt over all its threads (Staging::ResidentBlock).
// (Tried, not kept: docs/benchmarks.md, "Design evidence"; this file is the trial's, beside its patch.)
#include "gpu/elementwise/elementwise_flat_tiles.cuh"

namespace swarm::gpu::ew {

template <typename Real>
struct BlockRows {
    Real* base = nullptr;
    const int2* table = nullptr;
    int rows = 0;
    std::size_t array = 0;
};

template <typename Real>
__device__ __forceinline__ BlockRows<Real> build_block_table(Real* base, int2* table, int warps, int particles,
                                                             int tile_rows, std::size_t per_warp, int room, int pitch) {
    const int first_gw = static_cast<int>(blockIdx.x) * k_warps;
    int before = 0, total = 0;
    for (int w = 0; w < k_warps; ++w) {
        const int n = SplitTiles::of(first_gw + w, warps, particles, tile_rows).rows();
        if (w < static_cast<int>(threadIdx.x)) before += n;
        total += n;
    }
    if (threadIdx.x < k_warps) {
        const SplitTiles tiles = SplitTiles::of(first_gw + static_cast<int>(threadIdx.x), warps, particles, tile_rows);
        for (int i = 0; i < tiles.count(); ++i) {
            const Tile tile = tiles.at(i);
            for (int k = 0; k < tile.rows; ++k) {
                const int in_warp = tiles.offset(i) + k;
                table[before + in_warp] = make_int2(
                    tile.first + k, static_cast<int>(threadIdx.x * per_warp + static_cast<std::size_t>(in_warp) * pitch));
            }
        }
    }
    return {base, table, total, static_cast<std::size_t>(room) * pitch};
}

template <typename Visit>
__device__ __forceinline__ void for_block_groups(int block_rows, int groups, Visit visit) {
    const int step_rows = k_block / groups, step_groups = k_block % groups;
    int row = static_cast<int>(threadIdx.x) / groups, g = static_cast<int>(threadIdx.x) % groups;
#pragma unroll 1
    for (int q = static_cast<int>(threadIdx.x); q < block_rows * groups; q += k_block) {
        visit(row, g);
        row += step_rows;
        g += step_groups;
        if (g >= groups) {
            g -= groups;
            ++row;
        }
    }
}

template <typename Real>
__device__ __forceinline__ void draw_block_groups(const View<Real>& w, std::uint64_t seed, int s, int t,
                                                  const BlockRows<Real>& block) {
    for_block_groups(block.rows, w.pitch / 4, [&](int row, int g) {
        const int2 e = block.table[row];
        Real* x = block.base + e.y + 4 * g;
        const Uniforms4<Real> u = draw_group<Real>(static_cast<std::uint32_t>(s * w.particles + e.x), g, t, seed);
        store4(x + 3 * block.array, u.l);
        store4(x + 4 * block.array, u.g);
    });
}

// Fitness, personal bests and the running best `mine` of one resident tile: n_rows rows from swarm row r0, rows of
// pitch values at slot.x, a pass of rows_per_pass rows at a time in the segment layout of update_rows (the same order
// of terms, so the same results bit for bit). Improved rows go to slot.p and w.p, their fitness to slot.pf.
// update_flat_tiles writes the same pass out inline: made one function, its kernels took other registers and ran
// 1-5 % slower on the H200 (docs/benchmarks.md, "Design evidence").
template <Function F, typename Real, typename Slot, typename BeforePbestWrite>
__device__ __forceinline__ void tile_fitness(const View<Real>& w, const RunScalars<Real>& rs, int t, int r0, int n_rows,
                                             const Slot& slot, BeforePbestWrite before_pbest_write,
                                             ArgMin<Real>& mine) {
    const int lane = threadIdx.x & 31;
    const int groups = w.pitch / 4;
    // Row `lane`'s personal best fitness: only this warp reads or writes its rows' (read before any lane writes).
    const Real old_pf_of_lane = t != 0 && lane < n_rows ? slot.pf[lane] : Real(0);
    __syncwarp();
    const int seg = lane / w.width, in_row = lane % w.width, rows_per_pass = 32 / w.width;
    for (int pass = 0; pass < n_rows; pass += rows_per_pass) {
        const int in_tile_row = pass + seg;
        const bool active = in_tile_row < n_rows;
        const int r = r0 + (active ? in_tile_row : 0);
        const std::size_t re = static_cast<std::size_t>(r) * w.pitch;
        const std::size_t in_tile_at = static_cast<std::size_t>(active ? in_tile_row : 0) * w.pitch;
        const Real* fresh = slot.x + in_tile_at;
        const Real old_pf = __shfl_sync(0xffffffffu, old_pf_of_lane, active ? in_tile_row : 0);
        Real f;
        if constexpr (separable(F)) {
            Terms<Real> acc;
            if (active) {
                for (int gg = in_row; gg < groups; gg += w.width) {
                    const Vec4<Real> xk = load4(fresh + 4 * gg);
#pragma unroll
                    for (int j = 0; j < 4; ++j) {
                        if (4 * gg + j < w.dims) accumulate<F>(acc, xk.a[j], 4 * gg + j);
                    }
                }
            }
            f = rs.sign * finish<F>(combine<F>(acc, w.width), w.dims);
        } else {
            f = (active && in_row == 0) ? rs.sign * fn::evaluate<Real>(rs.function, fresh, w.dims) : Real(0);
            f = __shfl_sync(0xffffffffu, f, seg * w.width, 32);
        }
        if (active) {
            const bool improved = t == 0 || f < old_pf;
            if (improved) {
                before_pbest_write(r);
                for (int gg = in_row; gg < groups; gg += w.width) {
                    const Vec4<Real> xk = load4(fresh + 4 * gg);
                    store4(w.p + re + 4 * gg, xk);
                    store4(slot.p + in_tile_at + 4 * gg, xk);
                }
            }
            if (in_row == 0) {
                if (improved) slot.pf[in_tile_row] = f;
                mine = better_of(mine, ArgMin<Real>{improved ? f : old_pf, r});
            }
        }
    }
}

template <Function F, typename Real, typename BeforePbestWrite>
__device__ __forceinline__ ArgMin<Real> update_resident_block(const View<Real>& w, const RunScalars<Real>& rs,
                                                              const SwarmVectors<Real>& sv, int s, int t,
                                                              const BlockRows<Real>& block,
                                                              const ResidentTiles<Real>& rows,
                                                              BeforePbestWrite before_pbest_write) {
    const bool reads = t != 0;
    const std::size_t array = block.array;
    for_block_groups(block.rows, w.pitch / 4, [&](int row, int g) {
        const int2 e = block.table[row];
        Real* x = block.base + e.y + 4 * g;
        const auto r = static_cast<std::uint32_t>(s * w.particles + e.x);
        Vec4<Real> xk{}, vk{}, pk{};
        if (reads) {
            xk = load4(x);
            vk = load4(x + array);
            pk = load4(x + 2 * array);
        }
        if (reads && rows.draws_ahead) {
            const Uniforms4<Real> u{load4(x + 3 * array), load4(x + 4 * array)};
            step_group(w, rs, sv, r, g, t, xk, vk, pk, &u);
        } else {
            step_group(w, rs, sv, r, g, t, xk, vk, pk);
        }
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            if (4 * g + j >= w.dims) {
                xk.a[j] = Real(0);
                vk.a[j] = Real(0);
            }
        }
        store4(x, xk);
        store4(x + array, vk);
    });
    __syncthreads();
    ArgMin<Real> mine = no_best<Real>();
    for (int i = 0; i < rows.n; ++i) {
        const Tile tile = rows.tiles.at(i);
        tile_fitness<F, Real>(w, rs, t, s * w.particles + tile.first, tile.rows, rows.slot(i), before_pbest_write,
                              mine);
    }
    return mine;
}

} // namespace swarm::gpu::ew
