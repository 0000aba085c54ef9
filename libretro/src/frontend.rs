//! The frontend as the core sees it: the callbacks it registered (`retro_set_*`) and the few
//! things the core asks of it — log lines, notes on screen, the save folder, the pixel
//! format, the button labels, the serialization quirks, one frame of video, audio and input.
//!
//! The callbacks live in one lock of their own, copied out before each call, so a frontend
//! calling back into the core from a callback never meets a held lock here.

use std::ffi::{CStr, CString, c_char, c_uint, c_void};
use std::path::PathBuf;
use std::sync::Mutex;

use crate::abi::{self, LogLevel};

/// The callbacks the frontend registered so far.
#[derive(Clone, Copy, Default)]
pub struct Frontend {
    pub environment: Option<abi::EnvironmentFn>,
    pub video_refresh: Option<abi::VideoRefreshFn>,
    pub audio_sample_batch: Option<abi::AudioSampleBatchFn>,
    pub input_poll: Option<abi::InputPollFn>,
    pub input_state: Option<abi::InputStateFn>,
    pub log: Option<abi::LogPrintfFn>,
}

static FRONTEND: Mutex<Frontend> = Mutex::new(Frontend {
    environment: None,
    video_refresh: None,
    audio_sample_batch: None,
    input_poll: None,
    input_state: None,
    log: None,
});

/// The callbacks as they stand.
pub fn get() -> Frontend {
    *FRONTEND
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Changes the registered callbacks.
pub fn update(change: impl FnOnce(&mut Frontend)) {
    change(
        &mut FRONTEND
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()),
    );
}

impl Frontend {
    /// Sends environment command `cmd`; `false` when the frontend does not know it (or no
    /// environment callback is registered).
    ///
    /// # Safety
    /// `data` must point to what `cmd` expects (libretro.h), alive for the call.
    pub unsafe fn environment(&self, cmd: c_uint, data: *mut c_void) -> bool {
        match self.environment {
            // SAFETY: the frontend registered this callback for exactly this use; the caller
            // passes the `data` that `cmd` expects.
            Some(environment) => unsafe { environment(cmd, data) },
            None => false,
        }
    }

    /// Asks the frontend for its log callback (else lines go to standard error).
    pub fn fetch_log_interface(&mut self) {
        let mut callback = abi::LogCallback { log: None };
        // SAFETY: GET_LOG_INTERFACE fills a `struct retro_log_callback`.
        if unsafe {
            self.environment(
                abi::env::GET_LOG_INTERFACE,
                (&raw mut callback).cast::<c_void>(),
            )
        } {
            self.log = callback.log;
        }
    }

    /// Writes one line to the frontend's log (standard error without one).
    pub fn log(&self, level: LogLevel, line: &str) {
        let text = CString::new(format!("[Kairo] {line}\n").replace('\0', " "))
            .expect("NULs were replaced");
        match self.log {
            // SAFETY: a printf-style callback, given a "%s" format and one C string.
            Some(log) => unsafe { log(level, c"%s".as_ptr(), text.as_ptr()) },
            None => eprint!("{}", text.to_string_lossy()),
        }
    }

    /// Shows `note` on screen for `frames` vblanks (if the frontend can) and logs it.
    pub fn note(&self, level: LogLevel, note: &str, frames: c_uint) {
        self.log(level, note);
        let text = CString::new(note.replace('\0', " ")).expect("NULs were replaced");
        let mut message = abi::Message {
            msg: text.as_ptr(),
            frames,
        };
        // SAFETY: SET_MESSAGE reads a `struct retro_message`; `text` outlives the call.
        unsafe { self.environment(abi::env::SET_MESSAGE, (&raw mut message).cast::<c_void>()) };
    }

    /// The frontend's save folder, if it gives one (a non-empty path).
    pub fn save_directory(&self) -> Option<PathBuf> {
        let mut dir: *const c_char = std::ptr::null();
        // SAFETY: GET_SAVE_DIRECTORY writes a `const char *` (null: no folder).
        let answered = unsafe {
            self.environment(
                abi::env::GET_SAVE_DIRECTORY,
                (&raw mut dir).cast::<c_void>(),
            )
        };
        if !answered || dir.is_null() {
            return None;
        }
        // SAFETY: the frontend answered with a C string, alive at least for this call.
        let dir = unsafe { CStr::from_ptr(dir) }
            .to_string_lossy()
            .into_owned();
        (!dir.is_empty()).then(|| PathBuf::from(dir))
    }

    /// Asks for 32-bit XRGB pixels; `false` if the frontend cannot show them.
    pub fn set_pixel_format_xrgb8888(&self) -> bool {
        let mut format = abi::PIXEL_FORMAT_XRGB8888;
        // SAFETY: SET_PIXEL_FORMAT reads an `enum retro_pixel_format`.
        unsafe {
            self.environment(
                abi::env::SET_PIXEL_FORMAT,
                (&raw mut format).cast::<c_void>(),
            )
        }
    }

    /// Tells the frontend how states behave; returns the quirks it says it handles.
    pub fn set_serialization_quirks(&self, quirks: u64) -> u64 {
        let mut value = quirks;
        // SAFETY: SET_SERIALIZATION_QUIRKS reads and writes a `uint64_t`.
        unsafe {
            self.environment(
                abi::env::SET_SERIALIZATION_QUIRKS,
                (&raw mut value).cast::<c_void>(),
            )
        };
        value
    }

    /// Hands the frontend one 256x256 XRGB8888 picture.
    pub fn video(&self, pixels: &[u32], width: usize, height: usize) {
        debug_assert_eq!(pixels.len(), width * height);
        if let Some(video_refresh) = self.video_refresh {
            // SAFETY: `pixels` holds `height` rows of `width` words, alive for the call.
            unsafe {
                video_refresh(
                    pixels.as_ptr().cast(),
                    width as c_uint,
                    height as c_uint,
                    width * 4,
                )
            };
        }
    }

    /// Hands the frontend interleaved stereo samples (a whole number of frames).
    pub fn audio(&self, samples: &[i16]) {
        let Some(batch) = self.audio_sample_batch else {
            return;
        };
        let mut rest = samples;
        while rest.len() >= 2 {
            // SAFETY: `rest` holds `rest.len() / 2` stereo frames, alive for the call.
            let taken = unsafe { batch(rest.as_ptr(), rest.len() / 2) };
            if taken == 0 {
                break;
            }
            rest = &rest[(taken * 2).min(rest.len())..];
        }
    }

    /// Lets the frontend read its input devices for this vblank.
    pub fn poll_input(&self) {
        if let Some(poll) = self.input_poll {
            // SAFETY: a registered callback with no arguments.
            unsafe { poll() };
        }
    }

    /// Whether RetroPad button `id` of `port` is held.
    pub fn joypad_held(&self, port: c_uint, id: c_uint) -> bool {
        match self.input_state {
            // SAFETY: a registered callback taking plain integers.
            Some(state) => unsafe { state(port, abi::DEVICE_JOYPAD, 0, id) != 0 },
            None => false,
        }
    }
}
