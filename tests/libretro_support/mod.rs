//! A small libretro frontend for the tests: builds the core (`kairo-libretro`, release, in
//! its own target folder so the `.so` links only the machine, never the host crates), loads
//! the built `.so` with `libloading` as RetroArch would, registers callbacks, and drives it:
//! input for four RetroPads, the last picture (hashed as `kairo headless --hash` hashes it),
//! the audio frames of each run, the core's log lines; it gives the core a save folder when
//! a test sets one ([`Frontend::set_save_directory`]), else none, as a frontend without one.
//!
//! A core is one per process (plain C functions and globals), so one test at a time may use
//! it: [`Frontend::open`] takes a process-wide lock. The callbacks keep what they receive in
//! thread-local storage of the test's thread, which is the thread calling the core.
#![allow(dead_code)]

use std::cell::RefCell;
use std::ffi::{CStr, CString, c_char, c_uint, c_void};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, MutexGuard, OnceLock};

use kairo::input::{Button, ButtonWord, InputFrame};
use libloading::{Library, Symbol};

/// The RetroPad buttons as docs/libretro.md maps them onto Kairo's (by position).
pub const RETROPAD: [(c_uint, Button); 12] = [
    (0, Button::A),      // B (bottom)
    (1, Button::X),      // Y (left)
    (2, Button::Select), // Select
    (3, Button::Start),  // Start
    (4, Button::Up),     // Up
    (5, Button::Down),   // Down
    (6, Button::Left),   // Left
    (7, Button::Right),  // Right
    (8, Button::B),      // A (right)
    (9, Button::Y),      // X (top)
    (10, Button::L),     // L
    (11, Button::R),     // R
];

const ENV_SET_MESSAGE: c_uint = 6;
const ENV_SET_PIXEL_FORMAT: c_uint = 10;
const ENV_GET_LOG_INTERFACE: c_uint = 27;
const ENV_GET_SAVE_DIRECTORY: c_uint = 31;
const ENV_SET_SERIALIZATION_QUIRKS: c_uint = 44;
const PIXEL_FORMAT_XRGB8888: c_uint = 1;
const MEMORY_SAVE_RAM: c_uint = 0;

/// What the callbacks saw.
#[derive(Default)]
struct Seen {
    input: [ButtonWord; 4],
    picture: Vec<u32>,
    pitch: usize,
    audio_frames: usize,
    log: Vec<String>,
    pixel_format: Option<c_uint>,
    quirks: Option<u64>,
    /// The save folder given to the core (`None`: the frontend has none).
    save_dir: Option<CString>,
}

thread_local! {
    static SEEN: RefCell<Seen> = RefCell::new(Seen::default());
}

/// The built core's path (built once per test binary).
pub fn core_path() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map_or_else(|| root.join("target"), PathBuf::from)
            .join("libretro-core");
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let status = Command::new(cargo)
            .current_dir(&root)
            .args(["build", "--release", "-p", "kairo-libretro", "--target-dir"])
            .arg(&target)
            .status()
            .expect("run cargo build for the core");
        assert!(status.success(), "building the libretro core failed");
        target
            .join("release")
            .join(libloading::library_filename("kairo_libretro"))
    })
}

/// The loaded core and the lock that makes this test its only user.
pub struct Frontend {
    library: Library,
    _only_user: MutexGuard<'static, ()>,
}

/// What `retro_log_printf_t` receives from this core: it always passes `"%s"` and one string.
/// A C variadic call with these arguments puts them where a plain call would on x86-64
/// (System V) and AArch64 Linux, the platforms these tests run the core on.
unsafe extern "C" fn log_line(_level: c_uint, _format: *const c_char, line: *const c_char) {
    // SAFETY: the core passes a C string after its "%s" format.
    let line = unsafe { CStr::from_ptr(line) }
        .to_string_lossy()
        .into_owned();
    SEEN.with_borrow_mut(|seen| seen.log.push(line.trim_end().to_string()));
}

unsafe extern "C" fn environment(cmd: c_uint, data: *mut c_void) -> bool {
    match cmd {
        ENV_GET_LOG_INTERFACE => {
            let callback: unsafe extern "C" fn(c_uint, *const c_char, *const c_char) = log_line;
            // SAFETY: `data` is a `struct retro_log_callback`, one function pointer.
            unsafe {
                data.cast::<*const c_void>()
                    .write(callback as *const c_void)
            };
            true
        }
        ENV_SET_PIXEL_FORMAT => {
            // SAFETY: `data` is an `enum retro_pixel_format *`.
            let format = unsafe { *data.cast::<c_uint>() };
            SEEN.with_borrow_mut(|seen| seen.pixel_format = Some(format));
            format == PIXEL_FORMAT_XRGB8888
        }
        ENV_SET_SERIALIZATION_QUIRKS => {
            // SAFETY: `data` is a `uint64_t *`.
            let quirks = unsafe { *data.cast::<u64>() };
            SEEN.with_borrow_mut(|seen| seen.quirks = Some(quirks));
            true
        }
        ENV_GET_SAVE_DIRECTORY => SEEN.with_borrow(|seen| match &seen.save_dir {
            Some(dir) => {
                // SAFETY: `data` is a `const char **`; the string lives in `SEEN` until the
                // test changes it.
                unsafe { data.cast::<*const c_char>().write(dir.as_ptr()) };
                true
            }
            None => false,
        }),
        ENV_SET_MESSAGE => {
            // SAFETY: `data` is a `struct retro_message *` whose first field is a C string.
            let text = unsafe { CStr::from_ptr(*data.cast::<*const c_char>()) };
            let note = format!("note: {}", text.to_string_lossy());
            SEEN.with_borrow_mut(|seen| seen.log.push(note));
            true
        }
        _ => false,
    }
}

unsafe extern "C" fn video_refresh(
    data: *const c_void,
    width: c_uint,
    height: c_uint,
    pitch: usize,
) {
    if data.is_null() {
        return;
    }
    let words = pitch / 4 * height as usize;
    // SAFETY: the core hands `height` rows of `pitch` bytes.
    let pixels = unsafe { std::slice::from_raw_parts(data.cast::<u32>(), words) };
    assert_eq!((width, height, pitch), (256, 256, 1024));
    SEEN.with_borrow_mut(|seen| {
        seen.picture.clear();
        seen.picture.extend_from_slice(pixels);
        seen.pitch = pitch;
    });
}

unsafe extern "C" fn audio_sample_batch(_data: *const i16, frames: usize) -> usize {
    SEEN.with_borrow_mut(|seen| seen.audio_frames += frames);
    frames
}

unsafe extern "C" fn audio_sample(_left: i16, _right: i16) {
    SEEN.with_borrow_mut(|seen| seen.audio_frames += 1);
}

unsafe extern "C" fn input_poll() {}

unsafe extern "C" fn input_state(port: c_uint, device: c_uint, _index: c_uint, id: c_uint) -> i16 {
    if device != 1 {
        return 0;
    }
    let word = SEEN.with_borrow(|seen| seen.input.get(port as usize).copied().unwrap_or(0));
    RETROPAD
        .iter()
        .find(|(pad_id, _)| *pad_id == id)
        .map_or(0, |(_, button)| i16::from(word & button.bit() != 0))
}

static ONE_USER: Mutex<()> = Mutex::new(());

impl Frontend {
    /// Loads the built core and registers the callbacks (`retro_init` included).
    pub fn open() -> Frontend {
        let only_user = ONE_USER.lock().unwrap_or_else(|p| p.into_inner());
        SEEN.with_borrow_mut(|seen| *seen = Seen::default());
        // SAFETY: the core is this repository's, built above; its initialisers are Rust's.
        let library = unsafe { Library::new(core_path()) }.expect("load the core");
        let frontend = Frontend {
            library,
            _only_user: only_user,
        };
        // SAFETY: each symbol has the libretro signature it is called with.
        unsafe {
            assert_eq!(
                frontend.symbol::<unsafe extern "C" fn() -> c_uint>(b"retro_api_version")(),
                1
            );
            frontend
                .symbol::<unsafe extern "C" fn(unsafe extern "C" fn(c_uint, *mut c_void) -> bool)>(
                    b"retro_set_environment",
                )(environment);
            frontend.symbol::<unsafe extern "C" fn(
                unsafe extern "C" fn(*const c_void, c_uint, c_uint, usize),
            )>(b"retro_set_video_refresh")(video_refresh);
            frontend.symbol::<unsafe extern "C" fn(unsafe extern "C" fn(i16, i16))>(
                b"retro_set_audio_sample",
            )(audio_sample);
            frontend
                .symbol::<unsafe extern "C" fn(unsafe extern "C" fn(*const i16, usize) -> usize)>(
                    b"retro_set_audio_sample_batch",
                )(audio_sample_batch);
            frontend
                .symbol::<unsafe extern "C" fn(unsafe extern "C" fn())>(b"retro_set_input_poll")(
                input_poll,
            );
            frontend.symbol::<unsafe extern "C" fn(
                unsafe extern "C" fn(c_uint, c_uint, c_uint, c_uint) -> i16,
            )>(b"retro_set_input_state")(input_state);
            frontend.symbol::<unsafe extern "C" fn()>(b"retro_init")();
        }
        frontend
    }

    /// # Safety
    /// `T` must be the symbol's true type.
    unsafe fn symbol<T>(&self, name: &[u8]) -> Symbol<'_, T> {
        // SAFETY: the caller names the type.
        unsafe { self.library.get(name) }.expect("the core exports every retro_ function")
    }

    fn call(&self, name: &[u8]) {
        // SAFETY: `name` is a `void (void)` libretro function.
        unsafe { self.symbol::<unsafe extern "C" fn()>(name)() }
    }

    /// `retro_load_game` with `path` (the core wants full paths).
    pub fn load_game(&self, path: &Path) -> bool {
        #[repr(C)]
        struct GameInfo {
            path: *const c_char,
            data: *const c_void,
            size: usize,
            meta: *const c_char,
        }
        let path = CString::new(path.to_str().expect("UTF-8 path")).expect("no NUL");
        let info = GameInfo {
            path: path.as_ptr(),
            data: std::ptr::null(),
            size: 0,
            meta: std::ptr::null(),
        };
        // SAFETY: `retro_load_game` takes a `const struct retro_game_info *`.
        unsafe {
            self.symbol::<unsafe extern "C" fn(*const GameInfo) -> bool>(b"retro_load_game")(&info)
        }
    }

    /// `retro_unload_game`.
    pub fn unload_game(&self) {
        self.call(b"retro_unload_game");
    }

    /// `retro_reset`.
    pub fn reset(&self) {
        self.call(b"retro_reset");
    }

    /// One `retro_run` with every player's buttons; returns the audio frames it gave.
    pub fn run(&self, input: InputFrame) -> usize {
        SEEN.with_borrow_mut(|seen| {
            seen.input = input.0;
            seen.audio_frames = 0;
        });
        self.call(b"retro_run");
        SEEN.with_borrow(|seen| seen.audio_frames)
    }

    /// The last picture's hash, as `kairo headless --hash` prints it.
    pub fn frame_hash(&self) -> String {
        let rgba: Vec<u8> = SEEN.with_borrow(|seen| {
            seen.picture
                .iter()
                .flat_map(|&xrgb| {
                    let [_, r, g, b] = xrgb.to_be_bytes();
                    [r, g, b, 255]
                })
                .collect()
        });
        assert_eq!(rgba.len(), 256 * 256 * 4, "a picture was shown");
        kairo::hash::frame_hash_hex(&rgba)
    }

    /// The last picture, as XRGB words.
    pub fn picture(&self) -> Vec<u32> {
        SEEN.with_borrow(|seen| seen.picture.clone())
    }

    /// `retro_serialize_size` then `retro_serialize`.
    pub fn serialize(&self) -> Option<Vec<u8>> {
        // SAFETY: libretro signatures.
        unsafe {
            let size = self.symbol::<unsafe extern "C" fn() -> usize>(b"retro_serialize_size")();
            let mut state = vec![0u8; size];
            let ok = self
                .symbol::<unsafe extern "C" fn(*mut c_void, usize) -> bool>(b"retro_serialize")(
                state.as_mut_ptr().cast(),
                size,
            );
            ok.then_some(state)
        }
    }

    /// `retro_serialize` into a buffer of exactly `size` bytes.
    pub fn serialize_into(&self, size: usize) -> Option<Vec<u8>> {
        let mut state = vec![0u8; size];
        // SAFETY: libretro signature.
        let ok = unsafe {
            self.symbol::<unsafe extern "C" fn(*mut c_void, usize) -> bool>(b"retro_serialize")(
                state.as_mut_ptr().cast(),
                size,
            )
        };
        ok.then_some(state)
    }

    /// `retro_unserialize`.
    pub fn unserialize(&self, state: &[u8]) -> bool {
        // SAFETY: libretro signature.
        unsafe {
            self.symbol::<unsafe extern "C" fn(*const c_void, usize) -> bool>(b"retro_unserialize")(
                state.as_ptr().cast(),
                state.len(),
            )
        }
    }

    /// The SAVE_RAM area as the core exposes it: its address and size (null and 0: none).
    fn save_ram_area(&self) -> (*mut u8, usize) {
        // SAFETY: libretro signatures.
        unsafe {
            let size = self
                .symbol::<unsafe extern "C" fn(c_uint) -> usize>(b"retro_get_memory_size")(
                MEMORY_SAVE_RAM,
            );
            let data = self
                .symbol::<unsafe extern "C" fn(c_uint) -> *mut c_void>(b"retro_get_memory_data")(
                MEMORY_SAVE_RAM,
            );
            (data.cast(), size)
        }
    }

    /// A copy of the SAVE_RAM area (`None`: the core exposes none).
    pub fn save_ram(&self) -> Option<Vec<u8>> {
        let (data, size) = self.save_ram_area();
        // SAFETY: the core's area holds `size` bytes while the game is loaded.
        (size > 0 && !data.is_null())
            .then(|| unsafe { std::slice::from_raw_parts(data, size) }.to_vec())
    }

    /// Writes `bytes` at the start of the SAVE_RAM area, as a frontend loading its `.srm`.
    pub fn write_save_ram(&self, bytes: &[u8]) {
        let (data, size) = self.save_ram_area();
        assert!(
            !data.is_null() && bytes.len() <= size,
            "a SAVE_RAM area of {size} bytes"
        );
        // SAFETY: the area holds `size` bytes, at least `bytes.len()`.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), data, bytes.len()) };
    }

    /// Every log line and on-screen note so far (notes start with `note: `), taken.
    pub fn take_log(&self) -> Vec<String> {
        SEEN.with_borrow_mut(|seen| std::mem::take(&mut seen.log))
    }

    /// The save folder the frontend gives the core from now on (`None`: none, so the core
    /// keeps save RAM in the frontend's SAVE_RAM).
    pub fn set_save_directory(&self, dir: Option<&Path>) {
        let dir = dir.map(|d| CString::new(d.to_str().expect("UTF-8 path")).expect("no NUL"));
        SEEN.with_borrow_mut(|seen| seen.save_dir = dir);
    }

    /// The pixel format and the serialization quirks the core asked for.
    pub fn requests(&self) -> (Option<c_uint>, Option<u64>) {
        SEEN.with_borrow(|seen| (seen.pixel_format, seen.quirks))
    }
}

impl Drop for Frontend {
    fn drop(&mut self) {
        self.unload_game();
        self.call(b"retro_deinit");
    }
}
