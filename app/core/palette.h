#pragma once
// Overlay colours shared by the GUI and the annotated video. Swarm colours are saturated hues that the
// synthetic scenes never use exactly, so the GUI test can find particles in a screenshot by colour.
#include <array>
#include <cstdint>

namespace app {

struct Rgb {
    std::uint8_t r, g, b;
};

inline constexpr std::array<Rgb, 8> k_swarm_colours = {{
    {255, 0, 255}, // magenta
    {0, 255, 255}, // cyan
    {255, 255, 0}, // yellow
    {255, 128, 0}, // orange
    {128, 0, 255}, // violet
    {255, 0, 128}, // pink
    {0, 128, 255}, // sky
    {128, 255, 0}, // lime
}};
inline constexpr Rgb k_outline_colour = {0, 255, 0}; // every detection's projected outline
inline constexpr Rgb k_label_colour = {255, 255, 255};

inline Rgb swarm_colour(int swarm) {
    return k_swarm_colours[static_cast<std::size_t>(swarm < 0 ? -swarm : swarm) % k_swarm_colours.size()];
}

} // namespace app
