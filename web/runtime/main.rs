//! The WebAssembly runtime's C ABI: the functions the page (`web/page/kairo.js`) calls, built
//! for `wasm32-unknown-emscripten` by `web/build.sh`. A thin layer over
//! [`kairo::web::WebConsole`]: bytes go in through buffers from [`kairo_alloc`], and results
//! come back as pointers into the session that stay valid until its next call.
//!
//! A session is a pointer from [`kairo_open`]; it holds either a running console or the one
//! line saying why the cart could not start, and, while the page plays online, a netplay
//! match (`kairo_net_*`: a room's match whose transport, the lobby's WebSocket and the
//! WebRTC data channels, is the page's JavaScript, `web/page/rooms.js`).

use std::sync::Arc;

use kairo::web::{Step, WebConsole};
use kairo_core::netplay::NetError;
use kairo_core::netplay::stepped::{QueueLink, SteppedMatch, SteppedSetup, SteppedState};

/// One page's machine.
pub struct Session {
    console: Option<WebConsole>,
    /// The last text handed out ([`kairo_text_len`] is its length).
    text: String,
    /// Why the cart did not start.
    error: Option<String>,
    /// The packed cart, kept to power on a machine for a match.
    kcart: Vec<u8>,
    /// The match being played, if any (the page's own console waits meanwhile).
    net: Option<Net>,
    /// Why the last match could not start or ended: a title and the message.
    net_error: Option<(String, String)>,
}

/// A match in a room: its own machine, powered on with empty save RAM (a match never reads
/// or writes the player's save data), and what the page reads of it.
struct Net {
    link: Arc<QueueLink>,
    stepped: SteppedMatch,
    game: kairo::session::Session,
    /// This peer's input from a `--press` script (tests), instead of the page's keys.
    press: Option<kairo::movie::Movie>,
    rgba: Vec<u8>,
    /// Messages to send, packed for the page (see [`kairo_net_outgoing`]).
    outgoing: Vec<u8>,
    /// The cart's lines of confirmed frames not yet handed out.
    log: String,
    /// The sound of the last tick's new frames (interleaved stereo f32, 48 kHz).
    audio: Vec<f32>,
    /// What happened to the match (a drop, a return, a rematch), one line each.
    notes: String,
    /// Whether the last tick ended the match.
    ended: bool,
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
        kcart: cart.to_vec(),
        net: None,
        net_error: None,
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

/// The picture: 256x256 RGBA (the match's while one is open).
///
/// # Safety
/// As [`kairo_tick`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kairo_frame(session: *mut Session) -> *const u8 {
    // SAFETY: as the caller vouches.
    let session = unsafe { &*session };
    if let Some(net) = &session.net {
        return net.rgba.as_ptr();
    }
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
    if let Some(net) = &session.net {
        return net.audio.as_ptr();
    }
    session
        .console
        .as_ref()
        .map_or(std::ptr::null(), |c| c.audio().as_ptr())
}

/// Samples [`kairo_audio`] holds (while a match is open: those of the frames its last tick
/// played for the first time, any number of vblanks' worth).
///
/// # Safety
/// As [`kairo_tick`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kairo_audio_len(session: *mut Session) -> usize {
    // SAFETY: as the caller vouches.
    let session = unsafe { &*session };
    if let Some(net) = &session.net {
        return net.audio.len();
    }
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
/// 1 the lines the cart logged since the last call (in a match: of confirmed frames), 2 the
/// picture's hash, 3 the cart's name; for a match: 4 the hash asked for with
/// [`kairo_net_hash_of_frame`] once its frame is confirmed (empty before), 5 one line on where
/// the match stands, 6 and 7 the title and message of the error that ended the last match
/// (empty if none), 8 what happened to the match since the last call (a player dropped or
/// came back, a rematch), one line each.
///
/// # Safety
/// As [`kairo_tick`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kairo_text(session: *mut Session, what: u32) -> *const u8 {
    // SAFETY: as the caller vouches.
    let session = unsafe { &mut *session };
    session.text = match (what, &mut session.net, &mut session.console) {
        (1, Some(net), _) => std::mem::take(&mut net.log),
        (2, Some(net), _) => kairo::hash::frame_hash_hex(&net.rgba),
        (4, Some(net), _) => net.stepped.confirmed_hash().unwrap_or_default(),
        (5, Some(net), _) => net.stepped.status_text(),
        (8, Some(net), _) => std::mem::take(&mut net.notes),
        (6, _, _) => session.net_error.clone().unwrap_or_default().0,
        (7, _, _) => session.net_error.clone().unwrap_or_default().1,
        (0, _, None) => session.error.clone().unwrap_or_default(),
        (0, _, Some(c)) => c.fault().unwrap_or_default().to_string(),
        (1, _, Some(c)) => c.take_log(),
        (2, _, Some(c)) => c.hash(),
        (3, _, Some(c)) => c.name().to_string(),
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

/// Opens a match of the session's cart in room `room` (UTF-8) with password `password`
/// (none when empty) for `players` players, as player `player` (1-based; 0 to watch), with
/// `delay` frames of input delay. Returns 0, or 1 when it cannot start (texts 6 and 7 say
/// why). A match already open is closed first. The page's own console is left as it was.
///
/// # Safety
/// As [`kairo_tick`]; both ranges must be readable.
// A C ABI: the page passes plain numbers and byte ranges.
#[allow(clippy::too_many_arguments)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kairo_net_open(
    session: *mut Session,
    room: *const u8,
    room_len: usize,
    password: *const u8,
    password_len: usize,
    players: u32,
    player: u32,
    delay: u32,
) -> i32 {
    // SAFETY: as the caller vouches.
    let session = unsafe { &mut *session };
    // SAFETY: as the caller vouches.
    let (room, password) = unsafe { (bytes(room, room_len), bytes(password, password_len)) };
    session.net = None;
    session.net_error = None;
    let setup = match net_setup(room, password, players, player, delay) {
        Ok(setup) => setup,
        Err(error) => return net_failed(session, &error),
    };
    let cart = match cart_of_kcart(&session.kcart) {
        Ok(cart) => cart,
        Err(error) => return net_failed(session, &NetError::Setup(error.to_string())),
    };
    let link = QueueLink::new();
    let stepped = SteppedMatch::new(&cart, link.clone(), setup);
    // Every peer powers on with empty save RAM: the players' machines must not differ.
    let mut game = match kairo::session::Session::start(cart, kairo::saveram::SaveRam::default()) {
        Ok(game) => game,
        Err(error) => return net_failed(session, &NetError::Setup(error.to_string())),
    };
    let power_on = game.take_power_on();
    let mut rgba = vec![0; kairo::spec::SCREEN_W * kairo::spec::SCREEN_H * 4];
    game.console().rgba_into(&mut rgba);
    let mut log = String::new();
    for line in power_on.log {
        log.push_str(&line);
        log.push('\n');
    }
    session.net = Some(Net {
        link,
        stepped,
        game,
        press: None,
        rgba,
        outgoing: Vec::new(),
        log,
        audio: Vec::new(),
        notes: String::new(),
        ended: false,
    });
    0
}

/// The cart in a `.kcart`'s bytes.
fn cart_of_kcart(kcart: &[u8]) -> Result<kairo::cart::Cart, String> {
    let files = kairo::cart::kcart::unpack(kcart).map_err(|e| format!("cart.kcart: {e}"))?;
    let files = kairo::cart::files::CartFiles::from_map("cart.kcart", files);
    kairo::cart::Cart::from_files(files).map_err(|e| e.to_string())
}

/// The setup of a match from the page's numbers.
fn net_setup(
    room: &[u8],
    password: &[u8],
    players: u32,
    player: u32,
    delay: u32,
) -> Result<SteppedSetup, NetError> {
    let room = std::str::from_utf8(room)
        .map_err(|_| NetError::Setup("the room's name is not UTF-8".into()))?;
    let password = std::str::from_utf8(password)
        .map_err(|_| NetError::Setup("the room's password is not UTF-8".into()))?;
    let players = players as usize;
    if !(2..=kairo::spec::PLAYERS).contains(&players) {
        return Err(NetError::Setup(format!(
            "a match has 2 to {} players, not {players}",
            kairo::spec::PLAYERS
        )));
    }
    if player as usize > players {
        return Err(NetError::Setup(format!(
            "player {player} in a match of {players}"
        )));
    }
    let mut setup = SteppedSetup::player(room, players, (player.max(1) - 1) as usize);
    if player == 0 {
        setup.player = None;
    }
    setup.password = (!password.is_empty()).then(|| password.to_string());
    setup.input_delay = delay as usize;
    Ok(setup)
}

fn net_failed(session: &mut Session, error: &NetError) -> i32 {
    session.net_error = Some((error.title().to_string(), error.to_string()));
    1
}

/// Presses `script` (UTF-8, `kairo headless --press`'s steps, e.g. `start*1,-*40,right*20`)
/// as this peer's input in the open match, instead of the page's keys. Returns 0, or 1 when
/// the script is not one (text 7 says why; the match goes on with the page's keys).
///
/// # Safety
/// As [`kairo_tick`]; the range must be readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kairo_net_press(
    session: *mut Session,
    script: *const u8,
    script_len: usize,
) -> i32 {
    // SAFETY: as the caller vouches.
    let session = unsafe { &mut *session };
    // SAFETY: as the caller vouches.
    let script = unsafe { bytes(script, script_len) };
    let Some(net) = &mut session.net else {
        return 1;
    };
    let parsed = std::str::from_utf8(script)
        .map_err(|_| "the script is not UTF-8".to_string())
        .and_then(|script| kairo::movie::Movie::from_press(&[Some(script), None, None, None]));
    match parsed {
        Ok(movie) => {
            net.press = Some(movie);
            0
        }
        Err(message) => {
            session.net_error = Some(("PRESS SCRIPT".into(), format!("press={message}")));
            1
        }
    }
}

/// Asks for the hash of frame `frame`'s picture in the open match (text 4 once confirmed).
///
/// # Safety
/// As [`kairo_tick`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kairo_net_hash_of_frame(session: *mut Session, frame: f64) {
    // SAFETY: as the caller vouches.
    let session = unsafe { &mut *session };
    if let Some(net) = &mut session.net {
        net.stepped.hash_of_frame(frame as u64);
    }
}

/// A room member's id from the page: the lobby's UUID as four 32-bit words, most significant
/// first.
fn peer_id(a: u32, b: u32, c: u32, d: u32) -> u128 {
    (u128::from(a) << 96) | (u128::from(b) << 64) | (u128::from(c) << 32) | u128::from(d)
}

/// Room member `a.b.c.d`'s data channels opened (`present` 1) or closed, or it left (0).
///
/// # Safety
/// As [`kairo_tick`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kairo_net_present(
    session: *mut Session,
    a: u32,
    b: u32,
    c: u32,
    d: u32,
    present: i32,
) {
    // SAFETY: as the caller vouches.
    let session = unsafe { &mut *session };
    if let Some(net) = &session.net {
        net.link.peer_present(peer_id(a, b, c, d), present != 0);
    }
}

/// A message from room member `a.b.c.d` (either data channel).
///
/// # Safety
/// As [`kairo_tick`]; the range must be readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kairo_net_received(
    session: *mut Session,
    a: u32,
    b: u32,
    c: u32,
    d: u32,
    message: *const u8,
    len: usize,
) {
    // SAFETY: as the caller vouches.
    let session = unsafe { &mut *session };
    // SAFETY: as the caller vouches.
    let message = unsafe { bytes(message, len) };
    if let Some(net) = &session.net {
        net.link.received(peer_id(a, b, c, d), message.to_vec());
    }
}

/// One host frame of the open match (call once per 1/60 s) with `input` as this peer's
/// button word (ignored while a press script plays, and by a spectator). Returns 0 while
/// meeting the peers, 1 playing, 2 watching, 3 when the match ended (texts 6 and 7 say why;
/// the match stays open, showing its last picture, until [`kairo_net_close`]), 4 with no
/// match, 5 paused (a player dropped: waiting for them to come back), 6 resuming (rebuilding
/// the match for a player who came back). What to send is then in [`kairo_net_outgoing`],
/// the new frames' sound in [`kairo_audio`].
///
/// # Safety
/// As [`kairo_tick`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kairo_net_tick(session: *mut Session, input: u32) -> i32 {
    // SAFETY: as the caller vouches.
    let session = unsafe { &mut *session };
    let Some(net) = &mut session.net else {
        return 4;
    };
    if net.ended {
        net.outgoing.clear();
        net.audio.clear();
        return 3;
    }
    let input = match &net.press {
        Some(movie) => movie.input(net.game.console().vblanks() as usize).0[0],
        None => input as u16,
    };
    let before = net.game.console().vblanks();
    let result = net.stepped.tick(&mut net.game, input);
    for line in net.stepped.take_log() {
        net.log.push_str(&line);
        net.log.push('\n');
    }
    for line in net.stepped.take_notes() {
        net.notes.push_str(&line);
        net.notes.push('\n');
    }
    net.audio = net.stepped.take_audio();
    if net.game.console().vblanks() != before {
        net.game.console().rgba_into(&mut net.rgba);
    }
    pack_outgoing(&net.link, &mut net.outgoing);
    match result {
        Ok(SteppedState::Meeting) => 0,
        Ok(SteppedState::Playing) => 1,
        Ok(SteppedState::Watching) => 2,
        Ok(SteppedState::Paused) => 5,
        Ok(SteppedState::Resuming) => 6,
        Err(error) => {
            net.ended = true;
            session.net_error = Some((error.title().to_string(), error.to_string()));
            3
        }
    }
}

/// The link's messages to send, packed one after another: the peer's id (16 bytes, most
/// significant first), 1 for the reliable channel or 0, the length (4 bytes, little-endian),
/// the bytes.
fn pack_outgoing(link: &QueueLink, out: &mut Vec<u8>) {
    out.clear();
    for message in link.take_outgoing() {
        out.extend_from_slice(&message.peer.to_be_bytes());
        out.push(u8::from(message.reliable));
        out.extend_from_slice(&(message.bytes.len() as u32).to_le_bytes());
        out.extend_from_slice(&message.bytes);
    }
}

/// What the last [`kairo_net_tick`] left to send (packed as [`pack_outgoing`] says); its
/// length is [`kairo_net_outgoing_len`].
///
/// # Safety
/// As [`kairo_tick`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kairo_net_outgoing(session: *mut Session) -> *const u8 {
    // SAFETY: as the caller vouches.
    let session = unsafe { &*session };
    session
        .net
        .as_ref()
        .map_or(std::ptr::null(), |net| net.outgoing.as_ptr())
}

/// Bytes [`kairo_net_outgoing`] holds.
///
/// # Safety
/// As [`kairo_tick`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kairo_net_outgoing_len(session: *mut Session) -> usize {
    // SAFETY: as the caller vouches.
    let session = unsafe { &*session };
    session.net.as_ref().map_or(0, |net| net.outgoing.len())
}

/// Asks every player of the open match for a rematch: the cart powers on again for all.
///
/// # Safety
/// As [`kairo_tick`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kairo_net_rematch(session: *mut Session) {
    // SAFETY: as the caller vouches.
    let session = unsafe { &mut *session };
    if let Some(net) = &mut session.net {
        net.stepped.rematch();
    }
}

/// Tells the room's other players that this one leaves the match for good (they end it at
/// once); the notice is then in [`kairo_net_outgoing`], for the page to send before it
/// leaves the room. The match ends here.
///
/// # Safety
/// As [`kairo_tick`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kairo_net_leave(session: *mut Session) {
    // SAFETY: as the caller vouches.
    let session = unsafe { &mut *session };
    if let Some(net) = &mut session.net
        && !net.ended
    {
        net.stepped.leave();
        pack_outgoing(&net.link, &mut net.outgoing);
        net.ended = true;
    }
}

/// Closes the match (its machine is dropped; the page's own console plays on).
///
/// # Safety
/// As [`kairo_tick`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kairo_net_close(session: *mut Session) {
    // SAFETY: as the caller vouches.
    let session = unsafe { &mut *session };
    session.net = None;
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

// The clocks netplay reads (the machine itself never reads the host's time).
//
// Rust's standard library for wasm32-unknown-emscripten expects the C library of emscripten
// 3.1.42 and later, whose `time_t` has 64 bits; Debian's emscripten (3.1.6) writes a
// `struct timespec` of two 32-bit fields, so `Instant::now()` and `SystemTime::now()` read
// garbage (the greeting's timeouts fired at once). This `clock_gettime` (found before
// emscripten's JavaScript one) writes the layout Rust reads; only Rust calls it (Kairo's Lua
// reads no clock, and emscripten's `time` and `clock` are JavaScript of their own).
unsafe extern "C" {
    /// `performance.now()`: milliseconds, monotonic.
    fn emscripten_get_now() -> f64;
    /// `Date.now()`: milliseconds since the Unix epoch.
    fn emscripten_date_now() -> f64;
}

/// `struct timespec` as Rust's `libc` has it for emscripten.
#[repr(C)]
pub struct Timespec {
    tv_sec: i64,
    tv_nsec: std::ffi::c_long,
}

/// `CLOCK_REALTIME`; every other clock is answered with the monotonic one.
const CLOCK_REALTIME: i32 = 0;

/// The C library's `clock_gettime`, for Rust's `Instant` and `SystemTime`.
///
/// # Safety
/// `time` must be writable for a [`Timespec`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn clock_gettime(clock: i32, time: *mut Timespec) -> i32 {
    // SAFETY: emscripten's clocks take nothing and have no preconditions.
    let millis = unsafe {
        if clock == CLOCK_REALTIME {
            emscripten_date_now()
        } else {
            emscripten_get_now()
        }
    };
    let nanos = (millis * 1e6) as i64;
    // SAFETY: as the caller vouches.
    unsafe {
        time.write(Timespec {
            tv_sec: nanos.div_euclid(1_000_000_000),
            tv_nsec: nanos.rem_euclid(1_000_000_000) as std::ffi::c_long,
        });
    }
    0
}

// GGRS's clock: `instant` (GGRS's Instant on wasm32) asks emscripten for the monotonic clock
// by its asm.js-era C name; today's emscripten calls it `emscripten_get_now`.

/// Milliseconds on the page's monotonic clock (`performance.now()`), for `instant`.
#[unsafe(no_mangle)]
pub extern "C" fn _emscripten_get_now() -> f64 {
    // SAFETY: emscripten's clock takes nothing and has no preconditions.
    unsafe { emscripten_get_now() }
}
