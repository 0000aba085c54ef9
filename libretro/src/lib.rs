//! Kairo as a libretro core: the `retro_*` functions RetroArch (or any libretro frontend)
//! calls, each a thin entry that catches panics (nothing unwinds into the frontend: a panic
//! is logged and the cart unloaded) and hands the work to [`core::Core`]. The C ABI is
//! written by hand in [`abi`]; see docs/libretro.md for install, buttons, saves and states.
//!
//! A libretro core is one per process by design (the frontend calls plain functions), and
//! frontends call it from one thread. The loaded cart (its Lua state cannot move between
//! threads) lives in a thread-local slot of the thread that loaded it; a call from another
//! thread finds no cart and says so in the log.

pub mod abi;
pub mod core;
pub mod frontend;
pub mod pad;
pub mod saves;
pub mod srm_name;
pub mod states;

use std::cell::RefCell;
use std::ffi::{CStr, c_uint, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::Mutex;
use std::thread::ThreadId;

use kairo::spec::{SAVE_BYTES, SCREEN_H, SCREEN_W};

use crate::abi::LogLevel;
use crate::core::Core;

thread_local! {
    /// The loaded cart, on the thread that loaded it.
    static CORE: RefCell<Option<Core>> = const { RefCell::new(None) };
}

/// The thread that loaded the cart (to explain calls from another one).
static LOADED_ON: Mutex<Option<ThreadId>> = Mutex::new(None);

const LIBRARY_NAME: &CStr = c"Kairo";
const LIBRARY_VERSION: &CStr =
    match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
        Ok(version) => version,
        Err(_) => panic!("the version has no NUL"),
    };
/// A `.kcart` file, or a cart folder's `cart.toml` (frontends that cannot open folders).
const EXTENSIONS: &CStr = c"kcart|toml";

/// Runs `body` for entry `entry`, turning a panic into a log line, an unloaded cart and
/// `fallback`.
fn guarded<T>(entry: &str, fallback: T, body: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(value) => value,
        Err(panic) => {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".into());
            frontend::get().note(
                LogLevel::Error,
                &format!("internal error in {entry}: {why}; the cart was unloaded"),
                240,
            );
            set_core(None);
            fallback
        }
    }
}

/// Puts `core` in this thread's slot (dropping the one there).
fn set_core(core: Option<Core>) {
    let loaded_on = core.as_ref().map(|_| std::thread::current().id());
    let old = CORE.with(|slot| match slot.try_borrow_mut() {
        Ok(mut slot) => std::mem::replace(&mut *slot, core),
        Err(_) => None,
    });
    drop(old);
    *LOADED_ON.lock().unwrap_or_else(|p| p.into_inner()) = loaded_on;
}

/// Runs `body` on the loaded cart (`fallback` when none is loaded, or when the call comes
/// from inside another entry, through a frontend callback).
fn with_core<T>(entry: &str, fallback: T, body: impl FnOnce(&mut Core) -> T) -> T {
    let outcome = guarded(entry, Err(None), || {
        CORE.with(|slot| {
            let Ok(mut core) = slot.try_borrow_mut() else {
                return Err(Some(format!(
                    "{entry} was called from inside another entry (a frontend callback): ignored"
                )));
            };
            match core.as_mut() {
                Some(core) => Ok(body(core)),
                None => Err(loaded_elsewhere(entry)),
            }
        })
    });
    outcome.unwrap_or_else(|why| {
        if let Some(why) = why {
            frontend::get().log(LogLevel::Error, &why);
        }
        fallback
    })
}

/// When a cart is loaded on another thread than the caller's, a line saying so.
fn loaded_elsewhere(entry: &str) -> Option<String> {
    let loaded_on = *LOADED_ON.lock().unwrap_or_else(|p| p.into_inner());
    loaded_on
        .filter(|&id| id != std::thread::current().id())
        .map(|_| {
            format!(
                "{entry} was called from another thread than retro_load_game's: a libretro core \
                 is driven from one thread; ignored"
            )
        })
}

#[unsafe(no_mangle)]
pub extern "C" fn retro_api_version() -> c_uint {
    abi::API_VERSION
}

#[unsafe(no_mangle)]
pub extern "C" fn retro_set_environment(callback: Option<abi::EnvironmentFn>) {
    guarded("retro_set_environment", (), || {
        frontend::update(|f| f.environment = callback)
    });
}

#[unsafe(no_mangle)]
pub extern "C" fn retro_set_video_refresh(callback: Option<abi::VideoRefreshFn>) {
    guarded("retro_set_video_refresh", (), || {
        frontend::update(|f| f.video_refresh = callback)
    });
}

/// Unused: the core hands audio over in batches.
#[unsafe(no_mangle)]
pub extern "C" fn retro_set_audio_sample(_callback: Option<abi::AudioSampleFn>) {}

#[unsafe(no_mangle)]
pub extern "C" fn retro_set_audio_sample_batch(callback: Option<abi::AudioSampleBatchFn>) {
    guarded("retro_set_audio_sample_batch", (), || {
        frontend::update(|f| f.audio_sample_batch = callback)
    });
}

#[unsafe(no_mangle)]
pub extern "C" fn retro_set_input_poll(callback: Option<abi::InputPollFn>) {
    guarded("retro_set_input_poll", (), || {
        frontend::update(|f| f.input_poll = callback)
    });
}

#[unsafe(no_mangle)]
pub extern "C" fn retro_set_input_state(callback: Option<abi::InputStateFn>) {
    guarded("retro_set_input_state", (), || {
        frontend::update(|f| f.input_state = callback)
    });
}

#[unsafe(no_mangle)]
pub extern "C" fn retro_init() {
    guarded("retro_init", (), || {
        frontend::update(frontend::Frontend::fetch_log_interface)
    });
}

#[unsafe(no_mangle)]
pub extern "C" fn retro_deinit() {
    guarded("retro_deinit", (), || set_core(None));
}

/// # Safety
/// `info` points to a `retro_system_info` (as the frontend passes).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn retro_get_system_info(info: *mut abi::SystemInfo) {
    if info.is_null() {
        return;
    }
    let filled = abi::SystemInfo {
        library_name: LIBRARY_NAME.as_ptr(),
        library_version: LIBRARY_VERSION.as_ptr(),
        valid_extensions: EXTENSIONS.as_ptr(),
        need_fullpath: true,
        block_extract: false,
    };
    // SAFETY: the frontend passes a writable `retro_system_info`.
    guarded("retro_get_system_info", (), || unsafe {
        info.write(filled)
    });
}

/// # Safety
/// `info` points to a `retro_system_av_info` (as the frontend passes).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn retro_get_system_av_info(info: *mut abi::SystemAvInfo) {
    if info.is_null() {
        return;
    }
    let filled = abi::SystemAvInfo {
        geometry: abi::GameGeometry {
            base_width: SCREEN_W as c_uint,
            base_height: SCREEN_H as c_uint,
            max_width: SCREEN_W as c_uint,
            max_height: SCREEN_H as c_uint,
            aspect_ratio: SCREEN_W as f32 / SCREEN_H as f32,
        },
        timing: abi::SystemTiming {
            fps: kairo::spec::FRAME_RATE as f64,
            sample_rate: kairo::spec::SAMPLE_RATE as f64,
        },
    };
    // SAFETY: the frontend passes a writable `retro_system_av_info`.
    guarded("retro_get_system_av_info", (), || unsafe {
        info.write(filled)
    });
}

/// Only the RetroPad is offered: nothing to change.
#[unsafe(no_mangle)]
pub extern "C" fn retro_set_controller_port_device(_port: c_uint, _device: c_uint) {}

#[unsafe(no_mangle)]
pub extern "C" fn retro_reset() {
    with_core("retro_reset", (), |core| core.reset(&frontend::get()));
}

#[unsafe(no_mangle)]
pub extern "C" fn retro_run() {
    with_core("retro_run", (), |core| core.run(&frontend::get()));
}

#[unsafe(no_mangle)]
pub extern "C" fn retro_serialize_size() -> usize {
    with_core("retro_serialize_size", 0, Core::state_size)
}

/// # Safety
/// `data` points to `size` writable bytes (as the frontend passes).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn retro_serialize(data: *mut c_void, size: usize) -> bool {
    if data.is_null() {
        return false;
    }
    // SAFETY: the frontend passes `size` writable bytes at `data`.
    let out = unsafe { std::slice::from_raw_parts_mut(data.cast::<u8>(), size) };
    with_core("retro_serialize", false, |core| match core.serialize(out) {
        Ok(()) => true,
        Err(why) => {
            frontend::get().log(LogLevel::Error, &format!("cannot save a state: {why}"));
            false
        }
    })
}

/// # Safety
/// `data` points to `size` readable bytes (as the frontend passes).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn retro_unserialize(data: *const c_void, size: usize) -> bool {
    if data.is_null() {
        frontend::get().log(LogLevel::Error, "cannot load a state: no data given");
        return false;
    }
    // SAFETY: the frontend passes `size` readable bytes at `data`.
    let bytes = unsafe { std::slice::from_raw_parts(data.cast::<u8>(), size) };
    with_core("retro_unserialize", false, |core| {
        match core.unserialize(bytes) {
            Ok(route) => {
                let how = route.describe();
                frontend::get().log(LogLevel::Debug, &format!("state restored {how}"));
                true
            }
            Err(why) => {
                frontend::get().note(LogLevel::Error, &format!("state refused: {why}"), 240);
                false
            }
        }
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn retro_cheat_reset() {}

#[unsafe(no_mangle)]
pub extern "C" fn retro_cheat_set(_index: c_uint, _enabled: bool, _code: *const std::ffi::c_char) {}

/// # Safety
/// `game` is null or points to a `retro_game_info` whose `path` is null or a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn retro_load_game(game: *const abi::GameInfo) -> bool {
    // SAFETY: the frontend passes null or a valid `retro_game_info` with a C string path.
    let path = unsafe {
        game.as_ref()
            .filter(|g| !g.path.is_null())
            .map(|g| CStr::from_ptr(g.path).to_string_lossy().into_owned())
    };
    guarded("retro_load_game", false, || load_game(path))
}

fn load_game(path: Option<String>) -> bool {
    let frontend = frontend::get();
    let Some(path) = path else {
        frontend.log(
            LogLevel::Error,
            "no cart given: Kairo needs a .kcart file or a cart folder",
        );
        return false;
    };
    if !frontend.set_pixel_format_xrgb8888() {
        frontend.log(
            LogLevel::Error,
            "the frontend cannot show XRGB8888 pixels, which Kairo needs",
        );
        return false;
    }
    match Core::load(&PathBuf::from(&path), &frontend) {
        Ok(core) => {
            crate::pad::describe(&frontend);
            frontend.set_serialization_quirks(abi::quirk::CORE_VARIABLE_SIZE);
            frontend.log(
                LogLevel::Info,
                &format!("loaded {} from {path}", core.name()),
            );
            set_core(Some(core));
            true
        }
        Err(why) => {
            frontend.log(LogLevel::Error, &format!("cannot load the cart: {why}"));
            false
        }
    }
}

#[unsafe(no_mangle)]
pub extern "C" fn retro_load_game_special(
    _game_type: c_uint,
    _info: *const abi::GameInfo,
    _num_info: usize,
) -> bool {
    false
}

#[unsafe(no_mangle)]
pub extern "C" fn retro_unload_game() {
    guarded("retro_unload_game", (), || set_core(None));
}

#[unsafe(no_mangle)]
pub extern "C" fn retro_get_region() -> c_uint {
    abi::REGION_NTSC
}

#[unsafe(no_mangle)]
pub extern "C" fn retro_get_memory_data(id: c_uint) -> *mut c_void {
    if id != abi::MEMORY_SAVE_RAM {
        return std::ptr::null_mut();
    }
    with_core("retro_get_memory_data", std::ptr::null_mut(), |core| {
        core.save_ram()
            .map_or(std::ptr::null_mut(), |ram| ram.as_mut_ptr().cast())
    })
}

#[unsafe(no_mangle)]
pub extern "C" fn retro_get_memory_size(id: c_uint) -> usize {
    if id != abi::MEMORY_SAVE_RAM {
        return 0;
    }
    with_core("retro_get_memory_size", 0, |core| {
        core.save_ram().map_or(0, |_| SAVE_BYTES)
    })
}
