//! The user commands of `kairo` beside the window: headless runs (`kairo headless`, with
//! its screenshots and dumps), `kairo check`, `kairo export`, `kairo pattern`'s
//! previewer, `kairo sound`, and a netplay peer with no window. (`kairo profile` is in
//! [`crate::profiling`], the profiler's one home.)

pub mod check;
// The web runtime is built from this library: it does not carry a copy of itself.
#[cfg(not(target_family = "wasm"))]
pub mod export;
pub mod headless;
#[cfg(feature = "netplay")]
pub mod netplay;
pub mod preview;
pub mod sound;
