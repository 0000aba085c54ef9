//! Views of the hardware state for debugging: pattern VRAM as a tile sheet, palette RAM,
//! each background layer whole, OAM as a list and as outlines over the picture, and the
//! bullet table. Each is a pure function from `&Machine` to an RGBA [`image::Image`] drawn
//! with the console's system font, with lookups for what lies under a point (tile, palette
//! entry, layer cell); none charges cycles or changes state. [`dump`] writes them as PNG
//! files for `kairo headless --dump-vram DIR`; the window's debug menu shows the same
//! pictures. See `docs/debugging.md`.

pub mod bullets;
pub mod dump;
pub mod image;
pub mod layers;
pub mod palette;
pub mod sprites;
pub mod tiles;
