//! One run of a cart, as every front end drives it (`kairo headless`, the window, the
//! libretro core, the web page): the console; its history, that is the save RAM it powered
//! on with and the input of every vblank since (what a save state and a movie hold); the
//! fault that stopped the cart; rewind keyframes, when asked for; and the states this
//! process saved, kept in memory ([`memory`]).
//!
//! Loading a state takes the quickest route that gives exactly the console it holds
//! ([`Route`]): a state this process saved is restored from memory at once; a state along
//! this run (same power-on, input that parts from this run's inside the rewind window) is
//! reached from the nearest keyframe; any other is played again from power-on
//! ([`savestate::replay`]). Every route ends on the machine the state file holds.

pub mod memory;

use crate::cart::Cart;
use crate::console::{Console, ConsoleSnapshot, FrameReport, Tick};
use crate::input::InputFrame;
use crate::movie::Movie;
use crate::profile::FrameProfile;
use crate::rewind::Rewind;
use crate::saveram::SaveRam;
use crate::savestate::{self, StateError, StateImage};
use crate::script::ScriptError;
use crate::script::heap::RestoreError;
use memory::StateMemory;

/// The fault that stopped a cart, and the machine frame it happened in (the number
/// `frame()` gave there).
#[derive(Clone, Debug)]
pub struct Fault {
    pub frame: u64,
    /// The vblank count after the vblank it happened in.
    pub vblank: u64,
    pub error: ScriptError,
}

/// What one vblank produced, taken out of the console as it ends (so nothing piles up
/// unread): [`Session::tick`]'s answer. Every front end reads its outputs here, and nowhere
/// else.
#[derive(Debug, Default)]
pub struct Vblank {
    /// The machine frame that ran (its picture is ready); `None` when the screen holds the
    /// last picture: the previous frame still runs (slowdown), or the cart is stopped.
    pub frame: Option<FrameReport>,
    /// The vblank's sound: interleaved stereo samples at 48 kHz (800 frames).
    pub audio: Vec<f32>,
    /// The lines the cart logged (`log(...)`).
    pub log: Vec<String>,
    /// The profile of the machine frame that ran, while profiling is on.
    pub profile: Option<FrameProfile>,
    /// Whether the game wrote save RAM during the vblank (a front end that keeps save data
    /// stores it).
    pub save_written: bool,
    /// The fault that stopped the cart, when it is stopped (every vblank after it says so
    /// too; [`Session::fault`] keeps it).
    pub fault: Option<Fault>,
}

impl Vblank {
    /// Whether the picture changed (a machine frame ran).
    pub fn picture_changed(&self) -> bool {
        self.frame.is_some()
    }
}

/// How a state was brought back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// This process saved exactly that state: restored from memory.
    Memory,
    /// Along this run: from the nearest keyframe (or from where the run stands) inside the
    /// history the state shares with it, playing only the input after that.
    ThisRun,
    /// The whole history played again in a fresh console.
    FullReplay,
}

impl Route {
    /// How it came back, in words (for logs).
    pub fn describe(self) -> &'static str {
        match self {
            Route::Memory => "from memory (saved by this process)",
            Route::ThisRun => "along this run",
            Route::FullReplay => "by playing its history again from power-on",
        }
    }
}

/// How many vblanks two histories' inputs agree on from power-on.
fn common_prefix(a: &[InputFrame], b: &[InputFrame]) -> usize {
    a.iter().zip(b).take_while(|(a, b)| a == b).count()
}

/// A cart running, with its history.
#[derive(Debug)]
pub struct Session {
    console: Console,
    history: Movie,
    fault: Option<Fault>,
    rewind: Option<Rewind>,
    /// The digest of the cart's files (as states name them), worked out once.
    digest: String,
    memory: StateMemory,
    /// The save RAM's write count as last reported ([`Vblank::save_written`]): writes since
    /// are the ones the next report tells of. Going back in time (a state, a rewind, a
    /// rollback) moves it along without telling, so the player's save data is kept until the
    /// game writes save RAM again.
    save_reported: u64,
}

/// The history of a console just powered on: its save RAM, no input yet.
fn fresh_history(console: &Console) -> Movie {
    Movie {
        cart: console.cart().name().to_string(),
        ticks: Vec::new(),
        save: console.power_on_save().used().to_vec(),
        start: 0,
    }
}

impl Session {
    /// Powers `cart` on with save RAM holding `save` (see [`Console::with_save`]).
    pub fn start(cart: Cart, save: SaveRam) -> Result<Session, ScriptError> {
        Console::with_save(cart, save).map(Session::new)
    }

    /// A session of `console`, which has just powered on (its history starts here).
    pub fn new(console: Console) -> Session {
        assert_eq!(console.vblanks(), 0, "a session starts at power-on");
        Session {
            save_reported: console.power_on_save().changes(),
            history: fresh_history(&console),
            digest: savestate::cart_digest(console.cart()),
            console,
            fault: None,
            rewind: None,
            memory: StateMemory::default(),
        }
    }

    /// The session a state holds, for `cart` (played again from power-on): a state from
    /// another process, or a file. `file` names it in messages.
    pub fn from_state(cart: Cart, bytes: &[u8], file: &str) -> Result<Session, StateError> {
        let digest = savestate::cart_digest(&cart);
        let image = savestate::read(bytes, file, cart.name(), &digest)?;
        let console = savestate::replay(cart, &image)?;
        Ok(Session {
            save_reported: console.machine().save().changes(),
            console,
            history: image.history,
            fault: None,
            rewind: None,
            digest,
            memory: StateMemory::default(),
        })
    }

    /// The session the state file at `path` holds, for `cart`.
    pub fn from_state_file(cart: Cart, path: &std::path::Path) -> Result<Session, StateError> {
        let bytes = savestate::read_file(path)?;
        Session::from_state(cart, &bytes, &path.display().to_string())
    }

    /// Keeps rewind keyframes reaching at least `vblanks` back from now on (the window's
    /// rewind; the libretro core's quick restores).
    pub fn keep_rewind(&mut self, vblanks: u64) {
        if self.rewind.is_none() {
            self.rewind = Some(Rewind::with_window(vblanks));
        }
    }

    /// Advances one vblank with `input`, keeping it in the history (and a keyframe when one
    /// is due), and answers with what it produced. A fault is kept in [`Session::fault`];
    /// the console then answers every vblank with it, and its sound goes on.
    pub fn tick(&mut self, input: InputFrame) -> Vblank {
        self.history.ticks.push(input);
        let result = self.console.tick(input);
        if let Err(error) = &result
            && self.fault.is_none()
        {
            self.fault = Some(Fault {
                // A faulted frame still counts, as it does on the console.
                frame: self.console.machine().frame.saturating_sub(1),
                vblank: self.console.vblanks(),
                error: error.clone(),
            });
        }
        if let Some(rewind) = &mut self.rewind {
            rewind.after_vblank(&self.console);
        }
        let fault = result.is_err().then(|| self.fault.clone()).flatten();
        Vblank {
            frame: match result {
                Ok(Tick::Frame(report)) => Some(report),
                Ok(Tick::Busy) | Err(_) => None,
            },
            audio: self.console.take_audio(),
            log: self.console.take_log(),
            profile: self.console.take_profile(),
            save_written: self.save_written(),
            fault,
        }
    }

    /// What the cart produced as it powered on (its main chunk and `init()`: log lines,
    /// sound, save RAM writes), before the first vblank; left untaken, it comes with the
    /// next [`Vblank`].
    pub fn take_power_on(&mut self) -> Vblank {
        Vblank {
            audio: self.console.take_audio(),
            log: self.console.take_log(),
            save_written: self.save_written(),
            ..Vblank::default()
        }
    }

    /// Whether save RAM was written since the last report, which this one is.
    fn save_written(&mut self) -> bool {
        let writes = self.console.machine().save().changes();
        std::mem::replace(&mut self.save_reported, writes) != writes
    }

    /// Turns the profiler's collection on or off (see [`Console::set_profiling`]).
    pub fn set_profiling(&mut self, on: bool) {
        self.console.set_profiling(on);
    }

    /// Powers the console off and on again; save RAM keeps its contents (it is
    /// battery-backed). The history starts over. On a fault the console is left as it was.
    pub fn reset(&mut self) -> Result<(), ScriptError> {
        self.console.reset()?;
        self.powered_on();
        Ok(())
    }

    /// Powers on again with save RAM holding `save` (the libretro frontend's `.srm`).
    pub fn reset_with_save(&mut self, save: SaveRam) -> Result<(), ScriptError> {
        let kept = std::mem::replace(&mut self.console.machine_mut().save, save);
        let reset = self.reset();
        if reset.is_err() {
            self.console.machine_mut().save = kept;
        }
        reset
    }

    /// Bookkeeping after the console was replaced by a fresh one (its Lua state is new, so
    /// snapshots of the old one no longer apply).
    fn powered_on(&mut self) {
        self.history = fresh_history(&self.console);
        self.save_reported = self.console.power_on_save().changes();
        self.fault = None;
        if let Some(rewind) = &mut self.rewind {
            rewind.clear();
        }
        self.memory.clear();
    }

    /// One vblank back (rewind), `Ok(false)` at the start of the keyframes (or when none
    /// are kept).
    pub fn step_back(&mut self) -> Result<bool, RestoreError> {
        let Some(rewind) = &mut self.rewind else {
            return Ok(false);
        };
        let went = rewind.step_back(&mut self.console, &mut self.history.ticks);
        self.went_back();
        went
    }

    /// The rewind keyframes, if kept.
    pub fn rewind(&self) -> Option<&Rewind> {
        self.rewind.as_ref()
    }

    /// Whether there is anything to rewind to.
    pub fn can_rewind(&self) -> bool {
        self.rewind.as_ref().is_some_and(|r| r.earliest().is_some())
    }

    /// Takes the console as it stands into `snapshot` (reusing its memory), for
    /// [`Session::rollback`]: netplay's rollback keeps one per recent frame.
    pub fn snapshot_into(&self, snapshot: &mut ConsoleSnapshot) {
        self.console.snapshot_into(snapshot);
    }

    /// Goes back to `snapshot` (taken of this session since its last power-on or replayed
    /// load): the console as it was, the history cut back to it.
    pub fn rollback(&mut self, snapshot: &ConsoleSnapshot) -> Result<(), RestoreError> {
        self.console.restore(snapshot)?;
        let vblanks = snapshot.vblanks();
        self.history.ticks.truncate(vblanks as usize);
        if let Some(rewind) = &mut self.rewind {
            rewind.forget_after(vblanks);
        }
        self.went_back();
        Ok(())
    }

    /// A checksum of the machine as it stands: netplay's peers compare it to find desyncs.
    /// The high 64 bits are the hardware's state (FNV-1a of its bytes), the low 64 bits a
    /// digest of every value the cart's Lua script can reach ([`Console::script_digest`]),
    /// so a difference in the script's state is found when it happens, not when it first
    /// shows on the hardware.
    pub fn machine_checksum(&self) -> u128 {
        let bytes = savestate::machine_bytes(&self.console);
        let hardware = u128::from(crate::hash::fnv1a64(&bytes));
        // Zero when the walk could not get memory (a healthy digest is never zero in
        // practice): that peer then reports a desync rather than missing one.
        let script = u128::from(self.console.script_digest().unwrap_or(0));
        hardware << 64 | script
    }

    /// The state file of the console as it stands, which this process then loads from
    /// memory. Refused after a fault: the state could not be loaded (its replay would meet
    /// the fault).
    pub fn save_state(&mut self) -> Result<Vec<u8>, StateError> {
        if let Some(fault) = &self.fault {
            return Err(StateError::Faulted {
                frame: fault.frame,
                fault: fault.error.clone(),
            });
        }
        let image = savestate::image(&self.console, &self.history);
        let bytes = savestate::encode(self.console.cart(), &image);
        self.memory.keep(&self.console, image);
        if let Some(rewind) = &mut self.rewind {
            rewind.mark(&self.console);
        }
        Ok(bytes)
    }

    /// Brings back the state in `bytes` (`file` names it in messages) by the quickest
    /// route. A state of another cart or build, or a damaged one, is refused and the session
    /// is left as it was.
    pub fn load_state(&mut self, bytes: &[u8], file: &str) -> Result<Route, StateError> {
        let image = savestate::read(bytes, file, self.console.cart().name(), &self.digest)?;
        if let Some(snapshot) = self.memory.find_snapshot(&image)
            && self.console.restore(snapshot).is_ok()
        {
            // Keyframes stay where the state's history and this run's agree.
            let common = common_prefix(&self.history.ticks, &image.history.ticks);
            if let Some(rewind) = &mut self.rewind {
                rewind.forget_after(common as u64);
            }
            self.history = image.history;
            self.loaded();
            return Ok(Route::Memory);
        }
        if image.history.save == self.history.save && self.along_this_run(&image) {
            self.loaded();
            return Ok(Route::ThisRun);
        }
        let profiling = self.console.profiling();
        self.console = savestate::replay(self.console.cart().clone(), &image)?;
        self.console.set_profiling(profiling);
        self.history = image.history;
        self.memory.clear();
        if let Some(rewind) = &mut self.rewind {
            rewind.clear();
        }
        self.loaded();
        Ok(Route::FullReplay)
    }

    /// Loads the state file at `path` (see [`Session::load_state`]).
    pub fn load_state_file(&mut self, path: &std::path::Path) -> Result<Route, StateError> {
        let bytes = savestate::read_file(path)?;
        self.load_state(&bytes, &path.display().to_string())
    }

    /// After a state was loaded: the fault is the state's (none: faulted runs are not
    /// saved), and sound not yet taken belongs to the run left behind.
    fn loaded(&mut self) {
        self.went_back();
        self.console.take_audio();
        self.console.take_log();
    }

    /// After going back in time (a state, a rewind, a rollback): the fault as the console
    /// now stands; its save RAM's writes are not reported (they are the past's, or a
    /// replay's).
    fn went_back(&mut self) {
        self.fault = self.console.fault().map(|error| Fault {
            frame: self.console.machine().frame.saturating_sub(1),
            vblank: self.console.vblanks(),
            error: error.clone(),
        });
        self.save_reported = self.console.machine().save().changes();
    }

    /// Goes back along this run to where it parts from `target`'s history (from a rewind
    /// keyframe; not at all when `target` lies ahead on this run), then plays `target`'s
    /// input from there unseen; `true` if the machine then is the state's. `false` leaves
    /// the console somewhere on this run or the target's, for a full replay to replace.
    fn along_this_run(&mut self, target: &StateImage) -> bool {
        let theirs = &target.history.ticks;
        let common = common_prefix(&self.history.ticks, theirs);
        if common < self.history.ticks.len() {
            let Some(rewind) = &mut self.rewind else {
                return false;
            };
            let went = rewind.go_back_to(&mut self.console, &mut self.history.ticks, common as u64);
            if !matches!(went, Ok(true)) {
                return false;
            }
        }
        self.console.set_presenting(false);
        // Keyframes are taken only where the rewind window will still reach from the state.
        let keyframes_from = self.rewind.as_ref().map_or(u64::MAX, |r| {
            (theirs.len() as u64).saturating_sub(r.window())
        });
        for &input in &theirs[self.history.ticks.len()..] {
            self.history.ticks.push(input);
            // A fault met here was met by the run the state recorded too; the check below
            // compares the outcome.
            let _ = self.console.tick(input);
            self.console.take_log();
            if let Some(rewind) = &mut self.rewind
                && self.console.vblanks() >= keyframes_from
            {
                rewind.after_vblank(&self.console);
            }
        }
        self.console.set_presenting(true);
        let matches = savestate::machine_matches(&self.console, target);
        if !matches && let Some(rewind) = &mut self.rewind {
            rewind.clear();
        }
        matches
    }

    /// The console.
    pub fn console(&self) -> &Console {
        &self.console
    }

    /// The console, for tests that poke its machine or script behind the history's back
    /// (feature `test-door`, which only the test builds turn on): advancing it here would
    /// leave the history, states, movies and rollback wrong, so no front end may.
    #[cfg(feature = "test-door")]
    pub fn console_mut(&mut self) -> &mut Console {
        &mut self.console
    }

    /// The console, the session ended.
    pub fn into_console(self) -> Console {
        self.console
    }

    /// The cart running.
    pub fn cart(&self) -> &Cart {
        self.console.cart()
    }

    /// The save RAM it powered on with and every vblank's input since: what a state and a
    /// movie from power-on hold.
    pub fn history(&self) -> &Movie {
        &self.history
    }

    /// The fault that stopped the cart, if one did.
    pub fn fault(&self) -> Option<&Fault> {
        self.fault.as_ref()
    }

    /// The states saved by this process that load from memory.
    pub fn kept_states(&self) -> &StateMemory {
        &self.memory
    }

    /// Bytes the in-memory snapshots take (rewind keyframes and kept states).
    pub fn snapshot_bytes(&self) -> usize {
        self.rewind.as_ref().map_or(0, Rewind::bytes) + self.memory.bytes()
    }
}
