#pragma once
// The staged one-launch kernel's row update with no idle lanes (Staging::FlatTiles).
//
// Why: update_rows gives each row a segment of `width` lanes, a power of two. At 100 dimensions a row is 25
// groups of 4, so a segment of 16 lanes takes two passes and leaves 7 of its 32 lane slots idle: 22 % of
// the issued row-update instructions (two Philox calls per group) do nothing, and that shape ran well below
// the shapes whose rows fill every lane (docs/benchmarks.md, "Design evidence").
//
// How: a warp's tile is `tile_rows` consecutive rows, chosen by the host so that tile_rows x groups nearly
// fills a multiple of 32 (5 rows x 25 groups = 125 of 128 slots). The update walks the tile's groups in
// memory order, lane l taking groups l, l + 32, ..., whatever row they belong to: new x and v go to global
// memory, the new x also to the warp's scratch rows (Sphere: back into the tile's slot). The fitness then
// reads them row by row in the segment layout of update_rows, in the same order, so every sum and therefore
// every result is bit for bit the per-iteration kernel's (Elementwise.OneLaunchRunEqualsPerIterationLaunches
// checks it). That second pass costs a few shared-memory loads per group against the update's two Philox calls.
//
// Measured faster than the segment layout at 100 and 36 dimensions, where segments leave lanes idle; the
// variants tried and not kept are in docs/device-logs/elementwise-h200-eighth/experiments.txt
// (docs/benchmarks.md, "Design evidence").
//
// When a slot takes its next tile: as soon as the update has read it, the new positions waiting for the
// fitness pass in scratch rows (flat_scratch_rows); for Sphere, v and p then and x after the fitness pass.
// An earlier refill gives the next tile's copy the fitness pass's time to land.
//
// Which tiles a warp walks: SplitTiles (split_tiles.h): whole tiles dealt round robin, then the rows left over
// split into one short tile per warp, so that no warp runs a whole tile more than the others.
//
// Resident (ResidentTiles): where every warp's rows fit in shared memory, they stay there for the whole run
// instead of being copied in and out each iteration; only personal bests that improve go to global memory
// (other blocks copy the swarm best's from there). An L2-resident state such as FastPSO's 5,000 x 200 then
// costs no memory traffic per iteration but the swarm best position and the few improved rows: what is left
// is the row update's arithmetic and the grid barrier (docs/benchmarks.md, "Design evidence").
#include "gpu/elementwise/elementwise_kernel.cuh"
#include "gpu/elementwise/split_tiles.h"

namespace swarm::gpu::ew {

// Resident blocks per SM the flat-tile kernel is compiled for: its tiles (5 rows of 100 fp32 in two slots
// of x, v and p per warp, and scratch rows where flat_scratch_rows) take 96-112 KiB per block, so two blocks
// fit an SM and registers may go to 128.
constexpr int k_flat_min_blocks = 2;

// Where a tile's new positions wait for the fitness pass: in scratch rows of the warp's own (after
// StagedRows' slots and mbarriers), so that the slot takes its next tile as soon as the update has read it;
// or, for Sphere, in the slot's x, which then takes its next tile after the fitness pass (v and p before it).
// Scratch rows measured faster for every function but Sphere, whose fitness pass is the shortest
// (docs/benchmarks.md, "Design evidence").
constexpr bool flat_scratch_rows(Function f) { return f != Function::Sphere; }
template <typename Real>
constexpr std::size_t flat_scratch_bytes(int warps, int rows, int pitch) {
    return static_cast<std::size_t>(warps) * rows * pitch * sizeof(Real);
}

// Rows per warp tile for rows of `groups` float4 groups and `width` lanes per row in the fitness pass, up to
// `max_rows` (what the shared memory holds): the largest share of the update's lane slots used (ties: fewer
// fitness passes per row, then the smaller tile). Returns 0 if max_rows is 0.
constexpr int flat_tile_rows(int groups, int width, int max_rows) {
    int best = 0;
    long best_used = 0, best_slots = 1, best_passes = 0; // as fractions per row: used / slots, passes / rows
    for (int rows = 1; rows <= max_rows && rows <= 32; ++rows) {
        const long used = static_cast<long>(rows) * groups;
        const long slots = (used + 31) / 32 * 32;
        const long passes = (rows + 32 / width - 1) / (32 / width);
        const bool better_fill = used * best_slots > best_used * slots;
        const bool same_fill = used * best_slots == best_used * slots;
        if (best == 0 || better_fill || (same_fill && passes * best < best_passes * rows)) {
            best = rows;
            best_used = used;
            best_slots = slots;
            best_passes = passes;
        }
    }
    return best;
}

// The share of the update's lane slots that the staged segment layout of update_rows uses for rows of
// `groups` groups (`width` lanes per row, one group per lane at a time), and that flat tiles of `rows` rows use.
constexpr double segment_lane_use(int groups, int width) {
    return static_cast<double>(groups) / (static_cast<double>(width) * ((groups + width - 1) / width));
}
constexpr double flat_lane_use(int groups, int rows) {
    const int used = rows * groups;
    return static_cast<double>(used) / ((used + 31) / 32 * 32);
}

// StagedRows' slots walking a SplitTiles list: forward in even iterations, backward in odd ones (TileWalk's
// reason), and the next iteration's first tiles sent before the grid barrier, as StagedRows does.
template <typename Real>
struct FlatStagedRows {
    StagedRows<Real> staged; // the warp's slots, mbarriers and copies (its own row walk unused)
    SplitTiles tiles;
    int n;                   // tiles.count()
    Real* scratch;           // tile_rows x pitch values: the current tile's new positions
    bool backward = false;
    static constexpr bool k_staged = true;
    static constexpr bool k_resident = false;

    __device__ int index(int walk_pos) const { return backward ? n - 1 - walk_pos : walk_pos; }
    __device__ void issue(int k, int i) {
        const Tile tile = tiles.at(i);
        staged.issue(k, tile.first, tile.rows);
    }
    // Lane 0: the first k_stages tiles of the walk.
    __device__ void issue_first() {
        for (int k = 0; k < k_stages && k < n; ++k) issue(static_cast<int>((staged.used + k) % k_stages), index(k));
    }
    // Every lane, at the start of an iteration that reads rows (t > 0).
    __device__ void begin_iteration(bool back) {
        backward = back;
        if (staged.ahead) {
            staged.ahead = false;
            return;
        }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        if ((threadIdx.x & 31) == 0) {
            cuda::ptx::fence_proxy_async(cuda::ptx::space_global);
            issue_first();
        }
#endif
    }
    // Every lane, after its last tile of an iteration that has a next one (see StagedRows).
    __device__ void issue_next_iteration(bool back) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        cuda::ptx::fence_proxy_async(cuda::ptx::space_global);
        __syncwarp();
        backward = back;
        if ((threadIdx.x & 31) == 0) issue_first();
        staged.ahead = true;
#endif
    }
    // Every lane: waits for the current tile and returns its slot.
    __device__ RowSource<Real> acquire() { return staged.acquire(0, 0); }
    // True, with the tile k_stages ahead of walk place `pos`, for lane 0 where the walk has one (the release
    // functions' refill).
    __device__ bool tile_ahead(int pos, Tile& tile) const {
        const int later = pos + k_stages;
        if ((threadIdx.x & 31) != 0 || later >= n) return false;
        tile = tiles.at(index(later));
        return true;
    }
    // Every lane, after the update's last read of the current tile, at place `pos` of this iteration's walk (the
    // fitness pass reads the scratch rows): the slot takes the tile k_stages ahead, a fitness pass earlier than
    // if the slot held the new positions.
    __device__ void release(int pos) {
        const int k = staged.next_read_only_slot();
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        Tile tile;
        if (tile_ahead(pos, tile)) staged.issue(k, tile.first, tile.rows);
#endif
    }
    // No scratch rows (the slot's x takes the new positions): every lane, after the update's last read of the
    // current tile, sends the tile k_stages ahead's v and p into the slot ...
    __device__ void release_vp(int pos) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        Tile tile;
        if (tile_ahead(pos, tile)) staged.issue_vp(staged.current_slot(), tile.first, tile.rows);
#endif
    }
    // ... and after the fitness pass's last read of the slot's x, that tile's x.
    __device__ void release_x(int pos) {
        const int k = staged.next_slot();
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        Tile tile;
        if (tile_ahead(pos, tile)) staged.issue_x(k, tile.first, tile.rows);
#endif
    }
};

// A warp's rows held in shared memory for the whole run: x, then v, then p, each `room` rows of pitch values,
// its tiles one after another (SplitTiles::offset), and the rows' personal best fitness. The state is read from and
// written to here every iteration; global memory gets the improved personal bests as they happen (other blocks
// copy the swarm best's from there) and x, v and the fitness once, at the end.
// Where draws_ahead, two more arrays follow p: the R1 and R2 uniforms of the next iteration, which the warp draws
// while its block waits at the grid barrier (draw_flat_tiles), so the row update's Philox calls overlap the
// barrier's latency instead of following it (docs/benchmarks.md, "Design evidence").
template <typename Real>
struct ResidentTiles {
    SplitTiles tiles;
    int n;         // tiles.count()
    Real* region;  // resident_arrays(draws_ahead) x room x pitch values
    Real* pf;      // room values: the rows' personal best fitness (only this warp reads or writes them)
    Terms<Real>* terms; // room x 32 lane sums of the rows' fitness terms where summed_in_update, else null
    int room, pitch;
    bool draws_ahead; // two more arrays after p: the next iteration's R1 and R2 uniforms (draw_flat_tiles)
    static constexpr bool k_resident = true;

    struct Slot {
        Real* x;
        Real* v;
        Real* p;
        Real* pf; // the tile's first row's personal best fitness
        Real* ul; // draws_ahead: the R1 uniforms of the tile's groups, in the same order as x
        Real* ug; // and the R2 uniforms
        Terms<Real>* part; // the tile's first row's 32 lane sums (terms), or null
    };
    __device__ int index(int walk_pos) const { return walk_pos; } // one direction: no DRAM traffic to save
    __device__ Slot slot(int i) const {
        const std::size_t array = static_cast<std::size_t>(room) * pitch;
        Real* x = region + static_cast<std::size_t>(tiles.offset(i)) * pitch;
        Terms<Real>* part = terms != nullptr ? terms + 32 * tiles.offset(i) : nullptr;
        return {x, x + array, x + 2 * array, pf + tiles.offset(i), x + 3 * array, x + 4 * array, part};
    }
    // Every lane: the warp's final x, v and personal best fitness into the swarm's rows of `gx`, `gv` (rows of
    // `pitch` values) and `gpf`.
    __device__ void write_back(Real* gx, Real* gv, Real* gpf, std::size_t first_row) const {
        const int lane = threadIdx.x & 31;
        for (int i = 0; i < n; ++i) {
            const Tile tile = tiles.at(i);
            const Slot s = slot(i);
            const std::size_t at = (first_row + tile.first) * pitch;
            for (int k = lane; k < tile.rows * pitch; k += 32) {
                gx[at + k] = s.x[k];
                gv[at + k] = s.v[k];
            }
            if (lane < tile.rows) gpf[first_row + tile.first + lane] = s.pf[lane];
        }
    }
};

// Arrays of Real per resident row: x, v and p, and the next iteration's two draws where drawn ahead.
constexpr int resident_arrays(bool draws_ahead) { return draws_ahead ? 5 : 3; }

// Where the resident update sums the fitness terms itself (move_resident_tile): a separable function whose
// fitness pass gives each row 32 lanes, every one of them with groups (groups >= 32), in the clamped resident
// kernels (Staging::ResidentClamped and ResidentClampedBox, the only ones with that loop).
constexpr bool summed_in_update(Function f, int width, int groups, bool clamped) {
    return separable(f) && width == 32 && groups >= 32 && clamped;
}

// The resident update of one tile in its common case, a loop of its own (Staging::ResidentClamped): iteration
// t >= 1 with the draws made ahead, the Clamp rule by min / max (RunScalars::clamp_by_min_max) and no padding
// dimension. The general loop of update_flat_tiles asks each of these per group, zeroes its registers for t = 0
// and keeps the row index for the draws: in the SASS of the 5,000 x 200 Sphere kernel that bookkeeping was about
// a third of its instructions. The same helpers make the same values.
// Where `part` is given (summed_in_update), the loop also adds up each new position's fitness terms. A lane's
// groups of one row are g, g + 32, g + 64, ... (groups 32 apart lie 32 places apart in memory order), the groups
// that lane g mod 32 adds in the fitness pass's segment layout, in the same order: so the lane's sum is that
// lane's, term for term. It goes to part[32 row + g mod 32] when the lane leaves the row, and the fitness pass
// reads it there instead of reading the row again.
// Box (Staging::ResidentClampedBox): the swarm's bounds and velocity limit are the same in every dimension, read
// once into registers.
template <Function F, typename Real, bool Box>
__device__ __forceinline__ void move_resident_tile(const RunScalars<Real>& rs, const SwarmVectors<Real>& sv,
                                                   const typename ResidentTiles<Real>::Slot& slot, int n_rows,
                                                   int groups) {
    const int lane = threadIdx.x & 31;
    const int step_rows = 32 / groups, step_groups = 32 % groups;
    const int count = n_rows * groups;
    int row = lane / groups, g = lane % groups;
    Terms<Real> acc;
    // The lane's group in each array, in memory order as in update_flat_tiles (group q at 4 q), one step of 32
    // groups an iteration: an add per array instead of an index computed for each.
    Real* x = slot.x + 4 * lane;
    Real* v = slot.v + 4 * lane;
    const Real* p = slot.p + 4 * lane;
    const Real* ul = slot.ul + 4 * lane;
    const Real* ug = slot.ug + 4 * lane;
    [[maybe_unused]] const Real box_lo = Box ? sv.lo[0] : Real(0), box_hi = Box ? sv.hi[0] : Real(0),
                                box_vmax = Box ? sv.vmax[0] : Real(0);
#pragma unroll 1
    for (int q = lane; q < count; q += 32, x += 128, v += 128, p += 128, ul += 128, ug += 128) {
        Vec4<Real> xk = load4(x), vk = load4(v);
        const Vec4<Real> pk = load4(p);
        const Uniforms4<Real> u{load4(ul), load4(ug)};
        if constexpr (Box) {
            const Vec4<Real> lo{{box_lo, box_lo, box_lo, box_lo}}, hi{{box_hi, box_hi, box_hi, box_hi}};
            const Vec4<Real> vm{{box_vmax, box_vmax, box_vmax, box_vmax}};
            clamp_move(lo, hi, clamped_velocity(rs, load4(sv.gb + 4 * g), vm, u, xk, vk, pk), xk, vk);
        } else {
            const Vec4<Real> lo = load4(sv.lo + 4 * g), hi = load4(sv.hi + 4 * g);
            clamp_move(lo, hi, clamped_velocity(rs, sv, g, u, xk, vk, pk), xk, vk);
        }
        store4(x, xk);
        store4(v, vk);
        const int left_row = row, left_group = g;
        row += step_rows;
        g += step_groups;
        if (g >= groups) {
            g -= groups;
            ++row;
        }
        if constexpr (separable(F)) {
            if (slot.part != nullptr) {
#pragma unroll
                for (int j = 0; j < 4; ++j) accumulate<F>(acc, xk.a[j], 4 * left_group + j);
                if (row != left_row || q + 32 >= count) {
                    store_terms<F>(slot.part + 32 * left_row + (left_group & 31), acc);
                    acc = Terms<Real>{};
                }
            }
        }
    }
}

// Every lane: the R1 and R2 uniforms of iteration t for this warp's tiles of swarm s (rows.draws_ahead), each
// lane the groups it will update in update_flat_tiles (the same walk, written out again: a walker shared by both
// changed the update's register allocation and ran slower, docs/benchmarks.md "Design evidence"), so no other
// lane reads them.
template <typename Real>
__device__ __forceinline__ void draw_flat_tiles(const View<Real>& w, std::uint64_t seed, int s, int t,
                                                const ResidentTiles<Real>& rows) {
    const int lane = threadIdx.x & 31;
    const int groups = w.pitch / 4;
    const int step_rows = 32 / groups, step_groups = 32 % groups;
    for (int walk_pos = 0; walk_pos < rows.n; ++walk_pos) {
        const Tile tile = rows.tiles.at(walk_pos);
        const int r0 = s * w.particles + tile.first;
        const auto slot = rows.slot(walk_pos);
        int row = lane / groups, g = lane % groups;
#pragma unroll 1
        for (int q = lane; q < tile.rows * groups; q += 32) {
            const int in_tile = 4 * q; // memory order (update_flat_tiles)
            const Uniforms4<Real> u = draw_group<Real>(static_cast<std::uint32_t>(r0 + row), g, t, seed);
            store4(slot.ul + in_tile, u.l);
            store4(slot.ug + in_tile, u.g);
            row += step_rows;
            g += step_groups;
            if (g >= groups) {
                g -= groups;
                ++row;
            }
        }
    }
}

// One iteration t over this warp's tiles of swarm s (staged: odd iterations walk backward, a staged state is
// larger than L2; resident: the tiles stay in shared memory). Same contract as update_rows.
// Clamped (Staging::ResidentClamped and ResidentClampedBox, which is Box): every iteration after the first updates in
// move_resident_tile's loop; the general loop is compiled for the first (initialising) iteration only.
template <Function F, typename Real, bool Clamped, bool Box = false, typename Rows, typename BeforePbestWrite>
__device__ __forceinline__ ArgMin<Real> update_flat_tiles(const View<Real>& w, const RunScalars<Real>& rs,
                                                          const SwarmVectors<Real>& sv, int s, int t, bool last,
                                                          Rows& rows, BeforePbestWrite before_pbest_write) {
    constexpr bool resident = Rows::k_resident;
    constexpr bool scratch = !resident && flat_scratch_rows(F);
    const int lane = threadIdx.x & 31;
    const int groups = w.pitch / 4;
    const int seg = lane / w.width, in_row = lane % w.width, rows_per_pass = 32 / w.width;
    // Lane l's first group in a tile's memory order (row l / groups, group l % groups), and the step of 32.
    const int first_row = lane / groups, first_group = lane % groups;
    const int step_rows = 32 / groups, step_groups = 32 % groups;
    auto next_group = [&](int& row, int& g) { // 32 groups further in memory order
        row += step_rows;
        g += step_groups;
        if (g >= groups) {
            g -= groups;
            ++row;
        }
    };

    ArgMin<Real> mine = no_best<Real>();
    const bool reads = t != 0; // iteration 0 initialises: nothing to read
    const bool backward = (t & 1) != 0;
    const int n = rows.n;
    if constexpr (!resident) {
        if (reads) rows.begin_iteration(backward);
    }
    static_assert(!Clamped || resident, "move_resident_tile's loop is the resident form's");
    for (int walk_pos = 0; walk_pos < n; ++walk_pos) {
        const Tile tile = rows.tiles.at(rows.index(walk_pos)); // rows.backward is (t & 1) != 0 here
        const int base = tile.first, n_rows = tile.rows;
        const int r0 = s * w.particles + base; // the tile's first row
        const std::size_t tile_at = static_cast<std::size_t>(r0) * w.pitch;
        // Row `lane`'s personal best fitness, asked for before the update so that its latency overlaps it (resident:
        // the warp's own copy in shared memory, read once the slot is known).
        Real old_pf_of_lane = Real(0);
        if constexpr (!resident) {
            if (reads && lane < n_rows) old_pf_of_lane = w.pf[r0 + lane];
        }
        const auto slot = [&] {
            if constexpr (resident) {
                return rows.slot(walk_pos); // also at t = 0, which writes the first x and v there
            } else {
                return reads ? rows.acquire() : RowSource<Real>{};
            }
        }();
        if constexpr (resident) {
            if (reads && lane < n_rows) old_pf_of_lane = slot.pf[lane];
        }

        // The update, in memory order: lanes take consecutive groups across row boundaries.
        bool summed = false; // the fitness terms summed by the update (move_resident_tile)
        if constexpr (Clamped) {
            if (reads) {
                move_resident_tile<F, Real, Box>(rs, sv, slot, n_rows, groups);
                summed = slot.part != nullptr;
            }
        }
        // The general loop; Clamped: for t = 0 only, known at compile time (no move compiled in).
        const bool general_reads = Clamped ? false : reads;
        const int general_t = Clamped ? 0 : t;
        const int general_count = Clamped && reads ? 0 : n_rows * groups;
        int row = first_row, g = first_group;
#pragma unroll 1
        for (int q = lane; q < general_count; q += 32) {
            // A tile's rows lie back to back (pitch = 4 x groups), so group q in memory order starts at 4 q: a
            // 32-bit offset with no row multiply (row and g still key the draws and index the swarm vectors).
            const int in_tile = 4 * q;
            const std::size_t at = tile_at + static_cast<std::size_t>(in_tile);
            Vec4<Real> xk{}, vk{}, pk{};
            if (general_reads) {
                xk = load4(slot.x + in_tile);
                vk = load4(slot.v + in_tile);
                pk = load4(slot.p + in_tile);
            }
            if constexpr (resident) {
                if (general_reads && rows.draws_ahead) {
                    const Uniforms4<Real> u{load4(slot.ul + in_tile), load4(slot.ug + in_tile)};
                    step_group(w, rs, sv, static_cast<std::uint32_t>(r0 + row), g, general_t, xk, vk, pk, &u);
                } else {
                    step_group(w, rs, sv, static_cast<std::uint32_t>(r0 + row), g, general_t, xk, vk, pk);
                }
            } else {
                step_group(w, rs, sv, static_cast<std::uint32_t>(r0 + row), g, general_t, xk, vk, pk);
            }
            if (4 * g + 4 > w.dims) { // a row's last group, where dims is no multiple of 4
#pragma unroll
                for (int j = 0; j < 4; ++j) {
                    if (4 * g + j >= w.dims) { // padding stays 0 and scores nothing
                        xk.a[j] = Real(0);
                        vk.a[j] = Real(0);
                    }
                }
            }
            if constexpr (resident) { // in place: the lane read this group, nobody else touches it
                store4(slot.x + in_tile, xk);
                store4(slot.v + in_tile, vk);
                next_group(row, g);
                continue;
            }
            store4(w.x + at, xk);
            store4(w.v + at, vk);
            // for the fitness and the personal-best copy
            if constexpr (scratch) {
                store4(rows.scratch + in_tile, xk);
            } else if (general_reads) {
                store4(slot.x + in_tile, xk);
            }
            next_group(row, g);
        }
        __syncwarp(); // every lane's new positions (scratch, slot or global at t = 0) are visible to the warp
        if constexpr (scratch) {
            if (reads) rows.release(walk_pos); // the slot is read: it takes its next tile now
        } else if constexpr (!resident) {
            if (reads) rows.release_vp(walk_pos);
        }

        // Fitness, personal bests and the running best, a pass of rows_per_pass rows at a time in the
        // segment layout of update_rows (the same order of terms).
        for (int pass = 0; pass < n_rows; pass += rows_per_pass) {
            const int in_tile_row = pass + seg;
            const bool active = in_tile_row < n_rows;
            const int r = r0 + (active ? in_tile_row : 0);
            const std::size_t re = static_cast<std::size_t>(r) * w.pitch;
            const std::size_t in_tile_at = static_cast<std::size_t>(active ? in_tile_row : 0) * w.pitch;
            const Real* fresh = [&]() -> const Real* {
                if constexpr (resident) {
                    return slot.x + in_tile_at;
                } else {
                    return scratch ? rows.scratch + in_tile_at : reads ? slot.x + in_tile_at : w.x + re;
                }
            }();
            const Real old_pf = __shfl_sync(0xffffffffu, old_pf_of_lane, active ? in_tile_row : 0);
            Real f;
            if constexpr (separable(F)) {
                Terms<Real> acc;
                if constexpr (Clamped) {
                    if (summed) { // 32 lanes per row, one row per pass, every lane active
                        acc = combine<F>(load_terms<F>(slot.part + 32 * in_tile_row + in_row), 32);
                    }
                }
                if (!summed && active) {
                    for (int gg = in_row; gg < groups; gg += w.width) {
                        const Vec4<Real> xk = load4(fresh + 4 * gg);
                        if (4 * gg + 4 <= w.dims) { // no padding: no test per term (the same terms, same order)
#pragma unroll
                            for (int j = 0; j < 4; ++j) accumulate<F>(acc, xk.a[j], 4 * gg + j);
                        } else {
#pragma unroll
                            for (int j = 0; j < 4; ++j) {
                                if (4 * gg + j < w.dims) accumulate<F>(acc, xk.a[j], 4 * gg + j);
                            }
                        }
                    }
                }
                if (!summed) acc = combine<F>(acc, w.width);
                f = rs.sign * finish<F>(acc, w.dims);
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
                        if constexpr (resident) store4(slot.p + in_tile_at + 4 * gg, xk);
                    }
                }
                if (in_row == 0) {
                    if (improved) {
                        if constexpr (resident) {
                            slot.pf[in_tile_row] = f;
                        } else {
                            w.pf[r] = f;
                        }
                    }
                    mine = better_of(mine, ArgMin<Real>{improved ? f : old_pf, r});
                }
            }
        }
        if constexpr (scratch) {
            __syncwarp(); // the scratch rows are read before the next tile's update overwrites them
        } else if constexpr (!resident) {
            if (reads) rows.release_x(walk_pos);
        }
    }
    if constexpr (!resident) {
        if (!last) rows.issue_next_iteration((t & 1) == 0);
    }
    return mine;
}

} // namespace swarm::gpu::ew
