//! The tools around the console, above it in the layers: headless runs, GIF clips, debug
//! overlays, `kairo check`, the benchmarks, the BulletML pattern previewer, screenshots, the
//! web export, `kairo sound`'s tunes, the fuzz targets' bodies and the profiler's reports,
//! charts and overlay.
//! Nothing below (console, script, machine, units) imports from here.

pub mod bench;
pub mod calibrate;
pub mod check;
pub mod clip;
pub mod error;
// The web runtime is built from this library: it does not carry a copy of itself.
#[cfg(not(target_family = "wasm"))]
pub mod export;
pub mod fuzz;
pub mod headless;
#[cfg(feature = "netplay")]
pub mod netplay;
pub mod overlays;
pub mod preview;
pub mod profile;
#[cfg(feature = "netplay")]
pub mod relay;
pub mod screenshot;
pub mod sound;
pub mod ui_canvas;
pub mod vram;
