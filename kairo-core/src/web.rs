//! The machine as the web page drives it: a packed cart in, then one vblank per call with
//! four button words, handing back the picture, that vblank's sound, the cart's log, its
//! save RAM and the frame hash. The C ABI around it (`src/bin/kairo-web.rs`) is what the
//! WebAssembly runtime exports; this module holds the logic so it is tested natively too.
//!
//! Nothing here reads the host: a run from the same cart, save RAM and input gives the same
//! frames as `kairo headless`, which is the contract `index.html#hash=N` checks.

use crate::cart::files::CartFiles;
use crate::cart::{Cart, kcart};
use crate::input::{ButtonWord, InputFrame};
use crate::saveram::SaveRam;
use crate::session::Session;
use crate::spec::{PLAYERS, SCREEN_H, SCREEN_W};

/// Why a cart could not be started in the page.
#[derive(Debug, thiserror::Error)]
pub enum WebError {
    #[error("cart.kcart: {0}")]
    Kcart(#[from] kcart::KcartError),
    #[error("{0}")]
    Cart(#[from] crate::cart::CartErrors),
    #[error("{0}")]
    Script(#[from] crate::script::ScriptError),
}

/// What one vblank did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum Step {
    /// A machine frame ran: there is a new picture.
    Frame = 0,
    /// The previous frame is still running (slowdown): the picture holds.
    Busy = 1,
    /// The cart faulted (now or earlier); [`WebConsole::fault`] says why.
    Faulted = 2,
}

/// A console running a cart for the page.
pub struct WebConsole {
    game: Session,
    rgba: Vec<u8>,
    audio: Vec<f32>,
    log: String,
    /// Cycles the last machine frame took (all units).
    last_cycles: u64,
    /// Power-on and vblanks that wrote save RAM so far.
    save_writes: u64,
}

impl WebConsole {
    /// Powers on with the cart in `kcart` (a `.kcart` file's bytes) and save RAM holding
    /// `save` (what the page stored for it; empty for none).
    pub fn open(kcart: &[u8], save: &[u8]) -> Result<WebConsole, WebError> {
        let files = CartFiles::from_map("cart.kcart", kcart::unpack(kcart)?);
        let cart = Cart::from_files(files)?;
        let mut game = Session::start(cart, SaveRam::from_bytes(save))?;
        let power_on = game.take_power_on();
        let mut web = WebConsole {
            game,
            rgba: vec![0; SCREEN_W * SCREEN_H * 4],
            audio: Vec::new(),
            log: join_log(power_on.log),
            last_cycles: 0,
            save_writes: u64::from(power_on.save_written),
        };
        web.game.console().rgba_into(&mut web.rgba);
        Ok(web)
    }

    /// Advances one vblank with `words` (player 1 first). After a fault the machine no
    /// longer runs and every call answers [`Step::Faulted`] with silence.
    pub fn tick(&mut self, words: [ButtonWord; PLAYERS]) -> Step {
        if self.game.fault().is_some() {
            self.audio.clear();
            self.audio.resize(crate::audio::SAMPLES_PER_VBLANK, 0.0);
            return Step::Faulted;
        }
        let vblank = self.game.tick(InputFrame(words));
        self.audio = vblank.audio;
        self.log.push_str(&join_log(vblank.log));
        self.save_writes += u64::from(vblank.save_written);
        match (vblank.frame, vblank.fault) {
            (_, Some(_)) => Step::Faulted,
            (Some(report), None) => {
                self.last_cycles = report.total();
                self.game.console().rgba_into(&mut self.rgba);
                Step::Frame
            }
            (None, None) => Step::Busy,
        }
    }

    /// The picture as RGBA, 256x256x4 bytes.
    pub fn rgba(&self) -> &[u8] {
        &self.rgba
    }

    /// The last vblank's sound: interleaved stereo f32 at 48 kHz.
    pub fn audio(&self) -> &[f32] {
        &self.audio
    }

    /// Takes the lines the cart logged since the last call, each ending in a newline.
    pub fn take_log(&mut self) -> String {
        std::mem::take(&mut self.log)
    }

    /// Save RAM up to its last non-zero byte (what is worth storing).
    pub fn save(&self) -> &[u8] {
        self.game.console().machine().save.used()
    }

    /// How many times (power-on, vblanks) the game wrote save RAM: the page stores it when
    /// this moves.
    pub fn save_changes(&self) -> u64 {
        self.save_writes
    }

    /// The fault that stopped the cart, as one line.
    pub fn fault(&self) -> Option<String> {
        self.game.fault().map(|fault| fault.error.to_string())
    }

    /// The cart's name (for the page title).
    pub fn name(&self) -> &str {
        self.game.cart().name()
    }

    /// The hash of the picture, as `kairo headless --hash` prints it (16 hex digits).
    pub fn hash(&self) -> String {
        crate::hash::frame_hash_hex(&self.rgba)
    }

    /// Cycles the last machine frame took (all units); more than the budget means
    /// slowdown.
    pub fn cycles(&self) -> u64 {
        self.last_cycles
    }
}

fn join_log(lines: Vec<String>) -> String {
    lines.into_iter().map(|line| line + "\n").collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::console::Console;

    fn bundled(name: &str) -> Vec<u8> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../carts")
            .join(name);
        let files = CartFiles::open(&dir).expect("bundled cart");
        kcart::pack(files.iter()).expect("pack")
    }

    #[test]
    fn the_web_console_gives_the_frames_of_a_headless_run() {
        let bytes = bundled("platformer");
        let mut web = WebConsole::open(&bytes, &[]).expect("open");
        let mut console = Console::new(
            Cart::open(
                &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../carts/platformer"),
            )
            .expect("cart"),
        )
        .expect("console");
        for n in 0..90u16 {
            let words = [if n > 30 { 2 } else { 0 }, 0, 0, 0];
            web.tick(words);
            assert_eq!(web.audio().len(), crate::audio::SAMPLES_PER_VBLANK);
            console.tick(InputFrame(words)).expect("tick");
        }
        assert_eq!(web.hash(), crate::hash::frame_hash_hex(&console.rgba()));
    }

    #[test]
    fn a_damaged_cart_is_an_error_and_a_fault_stops_the_machine() {
        let mut bytes = bundled("platformer");
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        let error = WebConsole::open(&bytes, &[]).err().expect("refused");
        assert!(error.to_string().contains("checksum"), "{error}");

        let files = [
            ("cart.toml", &b"name = \"fault\"\n"[..]),
            ("main.lua", b"function update() error('boom') end\n"),
        ];
        let bytes = kcart::pack(files).expect("pack");
        let mut web = WebConsole::open(&bytes, &[]).expect("open");
        assert_eq!(web.tick([0; PLAYERS]), Step::Faulted);
        assert!(web.fault().expect("fault").contains("boom"));
        assert_eq!(web.tick([0; PLAYERS]), Step::Faulted);
        assert!(web.audio().iter().all(|&s| s == 0.0));
    }
}
