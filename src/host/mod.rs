//! The host: the console in a window (winit + pixels), with gamepads (gilrs), the keyboard
//! and sound (cpal), paced at 60 Hz on the wall clock. The only part of Kairo that touches
//! windows and devices; the machine core never imports it.

mod app;
pub mod audio;
pub mod config;
pub mod filter;
pub mod input_map;
pub mod pacing;
mod pads;
pub mod rate;
pub mod reload;
pub mod shell;
pub mod ui;

use std::path::PathBuf;

use thiserror::Error;

/// How the window starts.
#[derive(Clone, Debug)]
pub struct WindowOptions {
    /// The cart to run; `None` opens the cart browser over `./carts`.
    pub cart: Option<PathBuf>,
    /// Integer window scale.
    pub scale: u32,
    pub fullscreen: bool,
    /// Start with the profiler overlay.
    pub profile: bool,
    /// Preview this BulletML file instead of running a cart (`kairo pattern`).
    pub pattern: Option<PathBuf>,
    /// How the pattern is previewed (`kairo pattern --loop --rank R`).
    pub preview: crate::commands::preview::Preview,
    /// Join or host a netplay match with the cart (`kairo netplay`).
    pub netplay: Option<crate::netplay::play::NetOptions>,
    /// The display filter for this run (`--filter`), over `display.toml`'s; not saved.
    pub filter: Option<crate::views::display_filter::DisplayFilter>,
}

/// Why the window could not run.
#[derive(Debug, Error)]
pub enum HostError {
    #[error("cannot open a window: {0}")]
    Window(String),
    #[error("cannot draw to the window: {0}")]
    Graphics(String),
    #[error("{}: cannot save: {source}", path.display())]
    SaveSettings {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("no config folder on this system")]
    NoConfigFolder,
    #[error("cannot watch {} for changes: {source}", path.display())]
    Watch {
        path: std::path::PathBuf,
        source: notify::Error,
    },
    #[error("no sound ({0}); running silent")]
    NoSound(String),
}

/// Opens the console window and runs until it is closed.
pub fn run(options: WindowOptions) -> Result<(), HostError> {
    let event_loop =
        winit::event_loop::EventLoop::new().map_err(|e| HostError::Window(e.to_string()))?;
    let mut app = app::App::new(options);
    event_loop
        .run_app(&mut app)
        .map_err(|e| HostError::Window(e.to_string()))?;
    app.into_result()
}
