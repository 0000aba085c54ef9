//! What the window and `kairo headless` show of the hardware besides the picture: the
//! debug overlays (collision, bodies, hitboxes, bullets), the hardware viewers and VRAM
//! dumps (tiles, palettes, layers, sprites, bullets), the console's own UI canvas (menus,
//! fault screens), PNG writing, and the display filters the window and web page draw the
//! picture through.

pub mod display_filter;
pub mod overlays;
pub mod screenshot;
pub mod ui_canvas;
pub mod vram;
