//! The tools around the console, above it in the layers: headless runs, `kairo check`, the
//! benchmarks, the BulletML pattern previewer, screenshots, the fuzz targets' bodies and the
//! profiler's reports, charts and overlay. Nothing below (console, script, machine, units)
//! imports from here.

pub mod bench;
pub mod check;
pub mod error;
pub mod fuzz;
pub mod headless;
pub mod preview;
pub mod profile;
pub mod savestate;
pub mod screenshot;
pub mod vram;
