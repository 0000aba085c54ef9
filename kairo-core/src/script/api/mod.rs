//! The cart API, declared once: every function carts can call is one [`ApiFn`] entry in
//! [`API`], grouped by area (one module each). The Lua bindings, `docs/api.md` and the help
//! text are all generated from it.
//!
//! Adding an API function: write `fn name(c: &mut Call) -> LuaResult<MultiValue>` in the
//! module of its area, add an entry to that module's table (name, arguments, returns,
//! summary, cost), run `KAIRO_UPDATE_DOCS=1 cargo test api_doc` to regenerate `docs/api.md`.

pub mod audio;
pub mod bullets;
pub mod collide;
pub mod draw;
pub mod input;
pub mod map;
pub mod pico8;
pub mod pico8_menu;
pub mod pico8_sound;
pub mod pico8_system;
pub mod profile;
pub mod save;
pub mod sheets;
pub mod system;
pub mod video;

use crate::script::args::{Arg, Kind};
use crate::script::call::{ApiConstants, ApiFn, ApiGroup};
use crate::spec::{BG_LAYERS, PALETTES, PATTERN_TILES, PRIORITY_LEVELS};

/// Arguments several functions share, declared once.
pub mod common {
    use super::*;

    /// A pattern tile.
    pub(crate) const TILE: Arg = Arg::int("tile", 0, PATTERN_TILES as i64 - 1);
    /// A background layer.
    pub const LAYER: Arg = Arg::int("layer", 0, BG_LAYERS as i64 - 1);
    /// A full palette index: palette * 16 + colour.
    pub(crate) const COLOR: Arg = Arg::int("color", 0, 255);
    /// A palette of a sprite or cell, default 0.
    pub(crate) const PALETTE: Arg = Arg::int("palette", 0, PALETTES as i64 - 1).or_int(0);
    /// Flip flags: bit 0 horizontal, bit 1 vertical; default 0.
    pub(crate) const FLAGS: Arg = Arg::int("flags", 0, 3).or_int(0);
    /// A sprite's priority, default 2.
    pub(crate) const PRIORITY: Arg = Arg::int("priority", 0, PRIORITY_LEVELS as i64 - 1).or_int(2);
    /// A name of the cart's data (a map, a pattern, a sound).
    pub const fn name(what: &'static str) -> Arg {
        Arg::new(what, Kind::Str)
    }
}

/// Every API group, in docs order.
pub const API: &[ApiGroup] = &[
    crate::script::api::system::GROUP,
    crate::script::api::input::GROUP,
    crate::script::api::video::GROUP,
    crate::script::api::draw::GROUP,
    crate::script::api::map::GROUP,
    crate::script::api::sheets::GROUP,
    crate::script::api::collide::GROUP,
    crate::script::api::bullets::GROUP,
    crate::script::api::audio::GROUP,
    crate::script::api::save::GROUP,
    crate::script::api::profile::GROUP,
];

/// The PICO-8 API of `[pico8]` carts, in docs order (Kairo's own is in their `kairo` table).
pub const PICO8_API: &[ApiGroup] = &[
    crate::script::api::pico8::GROUP,
    crate::script::api::pico8_system::GROUP,
    crate::script::api::pico8_sound::GROUP,
    crate::script::api::pico8_menu::GROUP,
];

/// Every API function, in docs order.
pub fn all_functions() -> impl Iterator<Item = &'static ApiFn> {
    API.iter().flat_map(|group| group.functions.iter())
}

/// Every constant table, in docs order.
pub(crate) fn all_constants() -> impl Iterator<Item = &'static ApiConstants> {
    API.iter().flat_map(|group| group.constants.iter())
}
