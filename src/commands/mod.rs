//! The user commands of `kairo` beside the window: headless runs (`kairo headless`, with
//! its screenshots and dumps), `kairo check`, `kairo export`, `kairo pattern`'s
//! previewer, `kairo profile` and its reports, charts and overlay (the profiler's one home
//! above the core's collector), `kairo sound`, and a netplay peer with no window.

pub mod check;
// The web runtime is built from this library: it does not carry a copy of itself.
#[cfg(not(target_family = "wasm"))]
pub mod export;
pub mod headless;
#[cfg(feature = "netplay")]
pub mod netplay;
pub mod preview;
pub mod profile;
pub mod sound;
