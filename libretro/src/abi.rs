//! The part of the libretro API (`libretro.h`, API version 1) this core uses, written out by
//! hand: the structs the frontend and the core exchange, the callback types, and the numbers
//! of the environment commands, devices, buttons and memory areas. Layouts follow the C
//! header field for field (`#[repr(C)]`); names keep the header's spelling after `RETRO_`.

use std::ffi::{c_char, c_uint, c_void};

/// `RETRO_API_VERSION`.
pub const API_VERSION: c_uint = 1;

/// `RETRO_REGION_NTSC` (60 Hz).
pub const REGION_NTSC: c_uint = 0;

/// `RETRO_MEMORY_SAVE_RAM`: battery-backed memory the frontend keeps in a `.srm` file.
pub const MEMORY_SAVE_RAM: c_uint = 0;

/// `RETRO_DEVICE_JOYPAD`: the RetroPad.
pub const DEVICE_JOYPAD: c_uint = 1;

/// `RETRO_DEVICE_ID_JOYPAD_*`: the RetroPad's buttons.
pub mod joypad {
    use std::ffi::c_uint;
    pub const B: c_uint = 0;
    pub const Y: c_uint = 1;
    pub const SELECT: c_uint = 2;
    pub const START: c_uint = 3;
    pub const UP: c_uint = 4;
    pub const DOWN: c_uint = 5;
    pub const LEFT: c_uint = 6;
    pub const RIGHT: c_uint = 7;
    pub const A: c_uint = 8;
    pub const X: c_uint = 9;
    pub const L: c_uint = 10;
    pub const R: c_uint = 11;
}

/// `RETRO_ENVIRONMENT_*`: the commands the core sends through the environment callback.
pub mod env {
    use std::ffi::c_uint;
    /// `const struct retro_message *`: a short note on screen.
    pub const SET_MESSAGE: c_uint = 6;
    /// `const enum retro_pixel_format *`.
    pub const SET_PIXEL_FORMAT: c_uint = 10;
    /// `const struct retro_input_descriptor *`, ended by an entry with a null description.
    pub const SET_INPUT_DESCRIPTORS: c_uint = 11;
    /// `struct retro_log_callback *` (filled by the frontend).
    pub const GET_LOG_INTERFACE: c_uint = 27;
    /// `const char **`: the frontend's save folder (null when it has none).
    pub const GET_SAVE_DIRECTORY: c_uint = 31;
    /// `uint64_t *`: the core's quirks in, the ones the frontend handles back.
    pub const SET_SERIALIZATION_QUIRKS: c_uint = 44;
}

/// `RETRO_PIXEL_FORMAT_XRGB8888`: a 32-bit word per pixel, `0x00RRGGBB` in native order.
pub const PIXEL_FORMAT_XRGB8888: c_uint = 1;

/// `RETRO_SERIALIZATION_QUIRK_*`.
pub mod quirk {
    /// Serialized size may change within a session.
    pub const CORE_VARIABLE_SIZE: u64 = 1 << 2;
}

/// `enum retro_log_level`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub enum LogLevel {
    Debug = 0,
    Info = 1,
    Warn = 2,
    Error = 3,
}

/// `retro_environment_t`.
pub type EnvironmentFn = unsafe extern "C" fn(cmd: c_uint, data: *mut c_void) -> bool;
/// `retro_video_refresh_t`.
pub type VideoRefreshFn =
    unsafe extern "C" fn(data: *const c_void, width: c_uint, height: c_uint, pitch: usize);
/// `retro_audio_sample_t`.
pub type AudioSampleFn = unsafe extern "C" fn(left: i16, right: i16);
/// `retro_audio_sample_batch_t`: `frames` stereo frames, interleaved.
pub type AudioSampleBatchFn = unsafe extern "C" fn(data: *const i16, frames: usize) -> usize;
/// `retro_input_poll_t`.
pub type InputPollFn = unsafe extern "C" fn();
/// `retro_input_state_t`.
pub type InputStateFn =
    unsafe extern "C" fn(port: c_uint, device: c_uint, index: c_uint, id: c_uint) -> i16;
/// `retro_log_printf_t`: printf-style, so the core always passes `"%s"` and one string.
pub type LogPrintfFn = unsafe extern "C" fn(level: LogLevel, fmt: *const c_char, ...);

/// `struct retro_log_callback`.
#[repr(C)]
pub struct LogCallback {
    pub log: Option<LogPrintfFn>,
}

/// `struct retro_message`.
#[repr(C)]
pub struct Message {
    pub msg: *const c_char,
    pub frames: c_uint,
}

/// `struct retro_input_descriptor`.
#[repr(C)]
pub struct InputDescriptor {
    pub port: c_uint,
    pub device: c_uint,
    pub index: c_uint,
    pub id: c_uint,
    pub description: *const c_char,
}

/// `struct retro_system_info`. Its strings must outlive the core, so they are `'static`.
#[repr(C)]
pub struct SystemInfo {
    pub library_name: *const c_char,
    pub library_version: *const c_char,
    pub valid_extensions: *const c_char,
    pub need_fullpath: bool,
    pub block_extract: bool,
}

/// `struct retro_game_geometry`.
#[repr(C)]
pub struct GameGeometry {
    pub base_width: c_uint,
    pub base_height: c_uint,
    pub max_width: c_uint,
    pub max_height: c_uint,
    pub aspect_ratio: f32,
}

/// `struct retro_system_timing`.
#[repr(C)]
pub struct SystemTiming {
    pub fps: f64,
    pub sample_rate: f64,
}

/// `struct retro_system_av_info`.
#[repr(C)]
pub struct SystemAvInfo {
    pub geometry: GameGeometry,
    pub timing: SystemTiming,
}

/// `struct retro_game_info`.
#[repr(C)]
pub struct GameInfo {
    pub path: *const c_char,
    pub data: *const c_void,
    pub size: usize,
    pub meta: *const c_char,
}
