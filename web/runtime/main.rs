//! The WebAssembly runtime's C ABI: the functions the page (`web/page/kairo.js`) calls, built
//! for `wasm32-unknown-emscripten` by `web/build.sh`. A thin layer over
//! [`kairo::web::WebConsole`]: bytes go in through buffers from [`kairo_alloc`], and results
//! come back as pointers into the session that stay valid until its next call.
//!
//! A session is a pointer from [`kairo_open`]; it holds either a running console or the one
//! line saying why the cart could not start.

use kairo::web::{Step, WebConsole};

/// One page's machine.
pub struct Session {
    console: Option<WebConsole>,
    /// The last text handed out ([`kairo_text_len`] is its length).
    text: String,
    /// Why the cart did not start.
    error: Option<String>,
}

/// A buffer of `len` bytes for the page to fill (freed with [`kairo_free`]).
#[unsafe(no_mangle)]
pub extern "C" fn kairo_alloc(len: usize) -> *mut u8 {
    let mut bytes = vec![0u8; len].into_boxed_slice();
    let ptr = bytes.as_mut_ptr();
    std::mem::forget(bytes);
    ptr
}

/// Frees a buffer from [`kairo_alloc`].
///
/// # Safety
/// `ptr` and `len` must be those of a buffer from [`kairo_alloc`], freed once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kairo_free(ptr: *mut u8, len: usize) {
    if !ptr.is_null() {
        // SAFETY: the caller vouches that this is a boxed slice from `kairo_alloc`.
        drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) });
    }
}

/// Starts the cart in `cart` (a `.kcart`'s bytes) with save RAM `save`. Always returns a
/// session; [`kairo_error`] says whether the cart started.
///
/// # Safety
/// Both ranges must be readable (a null pointer is allowed with length 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kairo_open(
    cart: *const u8,
    cart_len: usize,
    save: *const u8,
    save_len: usize,
) -> *mut Session {
    // SAFETY: the caller vouches for both ranges.
    let (cart, save) = unsafe { (bytes(cart, cart_len), bytes(save, save_len)) };
    let (console, error) = match WebConsole::open(cart, save) {
        Ok(console) => (Some(console), None),
        Err(error) => (None, Some(error.to_string())),
    };
    Box::into_raw(Box::new(Session {
        console,
        text: String::new(),
        error,
    }))
}

/// Ends a session.
///
/// # Safety
/// `session` must come from [`kairo_open`] and not be used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kairo_close(session: *mut Session) {
    if !session.is_null() {
        // SAFETY: as the caller vouches.
        drop(unsafe { Box::from_raw(session) });
    }
}

/// One vblank with the four players' button words: 0 a new frame, 1 the picture holds
/// (slowdown), 2 the cart faulted or never started.
///
/// # Safety
/// `session` must be a live session from [`kairo_open`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kairo_tick(
    session: *mut Session,
    p1: u32,
    p2: u32,
    p3: u32,
    p4: u32,
) -> i32 {
    // SAFETY: as the caller vouches.
    let session = unsafe { &mut *session };
    let Some(console) = &mut session.console else {
        return Step::Faulted as i32;
    };
    console.tick([p1, p2, p3, p4].map(|w| w as u16)) as i32
}

/// The picture: 256x256 RGBA.
///
/// # Safety
/// As [`kairo_tick`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kairo_frame(session: *mut Session) -> *const u8 {
    // SAFETY: as the caller vouches.
    let session = unsafe { &*session };
    session
        .console
        .as_ref()
        .map_or(std::ptr::null(), |c| c.rgba().as_ptr())
}

/// The last vblank's sound, interleaved stereo f32 at 48 kHz; its length is
/// [`kairo_audio_len`].
///
/// # Safety
/// As [`kairo_tick`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kairo_audio(session: *mut Session) -> *const f32 {
    // SAFETY: as the caller vouches.
    let session = unsafe { &*session };
    session
        .console
        .as_ref()
        .map_or(std::ptr::null(), |c| c.audio().as_ptr())
}

/// Samples [`kairo_audio`] holds.
///
/// # Safety
/// As [`kairo_tick`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kairo_audio_len(session: *mut Session) -> usize {
    // SAFETY: as the caller vouches.
    let session = unsafe { &*session };
    session.console.as_ref().map_or(0, |c| c.audio().len())
}

/// Save RAM worth storing; its length is [`kairo_save_len`].
///
/// # Safety
/// As [`kairo_tick`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kairo_save(session: *mut Session) -> *const u8 {
    // SAFETY: as the caller vouches.
    let session = unsafe { &*session };
    session
        .console
        .as_ref()
        .map_or(std::ptr::null(), |c| c.save().as_ptr())
}

/// Bytes [`kairo_save`] holds.
///
/// # Safety
/// As [`kairo_tick`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kairo_save_len(session: *mut Session) -> usize {
    // SAFETY: as the caller vouches.
    let session = unsafe { &*session };
    session.console.as_ref().map_or(0, |c| c.save().len())
}

/// Writes that changed save RAM since power-on (the page stores it when this moves).
///
/// # Safety
/// As [`kairo_tick`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kairo_save_changes(session: *mut Session) -> f64 {
    // SAFETY: as the caller vouches.
    let session = unsafe { &*session };
    session
        .console
        .as_ref()
        .map_or(0.0, |c| c.save_changes() as f64)
}

/// Cycles the last machine frame charged.
///
/// # Safety
/// As [`kairo_tick`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kairo_cycles(session: *mut Session) -> f64 {
    // SAFETY: as the caller vouches.
    let session = unsafe { &*session };
    session.console.as_ref().map_or(0.0, |c| c.cycles() as f64)
}

/// Text answers: each puts UTF-8 in the session and returns a pointer to it; its length is
/// [`kairo_text_len`]. `what`: 0 why the cart did not start or faulted (empty if it runs),
/// 1 the lines the cart logged since the last call, 2 the picture's hash, 3 the cart's name.
///
/// # Safety
/// As [`kairo_tick`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kairo_text(session: *mut Session, what: u32) -> *const u8 {
    // SAFETY: as the caller vouches.
    let session = unsafe { &mut *session };
    session.text = match (what, &mut session.console) {
        (0, None) => session.error.clone().unwrap_or_default(),
        (0, Some(c)) => c.fault().unwrap_or_default().to_string(),
        (1, Some(c)) => c.take_log(),
        (2, Some(c)) => c.hash(),
        (3, Some(c)) => c.name().to_string(),
        _ => String::new(),
    };
    session.text.as_ptr()
}

/// Bytes of the last [`kairo_text`] answer.
///
/// # Safety
/// As [`kairo_tick`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kairo_text_len(session: *mut Session) -> usize {
    // SAFETY: as the caller vouches.
    let session = unsafe { &*session };
    session.text.len()
}

/// A byte range from the page, empty for a null pointer.
///
/// # Safety
/// A non-null `ptr` must be readable for `len` bytes.
unsafe fn bytes<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if ptr.is_null() || len == 0 {
        return &[];
    }
    // SAFETY: as the caller vouches.
    unsafe { std::slice::from_raw_parts(ptr, len) }
}

/// Emscripten runs `main` once the module is ready; the page drives everything after.
fn main() {}

// GGRS's clock: `instant` (GGRS's Instant on wasm32) asks emscripten for the monotonic clock
// by its asm.js-era C name; today's emscripten calls it `emscripten_get_now`.
unsafe extern "C" {
    fn emscripten_get_now() -> f64;
}

/// Milliseconds on the page's monotonic clock (`performance.now()`), for `instant`.
#[unsafe(no_mangle)]
pub extern "C" fn _emscripten_get_now() -> f64 {
    // SAFETY: emscripten's clock takes nothing and has no preconditions.
    unsafe { emscripten_get_now() }
}
