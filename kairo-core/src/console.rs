//! The console: owns all machine state (hardware, the cart's script, the picture) and runs it
//! one machine frame at a time. A frame that needs more than the cycle budget occupies
//! ceil(cycles / budget) vblanks, like real hardware slowing down; [`Console::tick`] steps
//! one vblank and starts a new machine frame only when the last one has finished.

use std::sync::Arc;

use serde::Serialize;

use crate::cart::Cart;
use crate::input::InputFrame;
use crate::machine::Machine;
use crate::meter::{Unit, UnitCycles, load_percent, vblanks_for};
use crate::profile::{FrameProfile, HostTimes, OUTSIDE_LUA, VideoSplit};
use crate::saveram::SaveRam;
use crate::script::context::CallContext;
use crate::script::heap::{HeapSnapshot, RestoreError};
use crate::script::{Lent, Pico8Step, Script, ScriptError};
use crate::spec::{FRAME_BUDGET, INIT_CAP, PALETTE_ENTRIES, RUNAWAY_CAP, SCREEN_H, SCREEN_W, cost};
use crate::video::Video;
use crate::video::framebuffer::Framebuffer;

/// What one machine frame did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FrameReport {
    /// Machine frame number (0 = the first frame after `init`).
    pub frame: u64,
    /// Cycles charged to each unit.
    pub cycles: UnitCycles,
    /// Vblanks the frame occupied: 1 within budget, more when it slowed down.
    pub vblanks: u32,
    /// Live bullets after the frame's bullet step.
    pub bullets_live: u32,
    /// Bullet spawns refused this frame because the table was full.
    pub bullets_dropped: u32,
    /// Sprites `sprite` could not draw this frame because OAM was full.
    pub sprites_dropped: u32,
}

impl FrameReport {
    /// Cycles of all units together.
    pub fn total(&self) -> u64 {
        self.cycles.total()
    }

    /// Load in percent of one frame's budget.
    pub fn load(&self) -> f64 {
        load_percent(self.total())
    }

    /// Whether the frame went over budget and took more than one vblank.
    pub fn slowed_down(&self) -> bool {
        self.vblanks > 1
    }
}

/// What one vblank did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tick {
    /// A machine frame ran and its picture is ready.
    Frame(FrameReport),
    /// The previous frame is still running (slowdown); the screen holds its picture.
    Busy,
}

/// The machine running one cart.
pub struct Console {
    cart: Arc<Cart>,
    /// The hardware and the script calls' bookkeeping; `None` only while they are lent to
    /// the script during a call.
    lent: Option<Lent>,
    script: Script,
    framebuffer: Framebuffer,
    /// Palette RAM as it was when `framebuffer` was composed, as RGBA words.
    shown_palette: [u32; PALETTE_ENTRIES],
    fault: Option<ScriptError>,
    /// Audio mixed by `tick` and not yet taken: interleaved stereo f32 at 48 kHz.
    audio: Vec<f32>,
    /// Whether frames are profiled (see [`Console::set_profiling`]).
    profiling: bool,
    /// Whether frames are drawn into the framebuffer (see [`Console::set_presenting`]).
    presenting: bool,
    /// Host time spent mixing audio since the last frame, in microseconds.
    audio_us: f32,
    /// The profile of the last frame run, while profiling.
    profile: Option<FrameProfile>,
    /// Save RAM as it was at power-on (what a movie recorded from here starts with).
    power_on_save: SaveRam,
}

impl std::fmt::Debug for Console {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Console")
            .field("cart", &self.cart.name())
            .field("vblanks", &self.machine().vblanks)
            .field("fault", &self.fault)
            .finish_non_exhaustive()
    }
}

const LENT: &str = "the machine is only lent during script calls";

/// The whole console between vblanks, kept in memory: the hardware, the Lua heap and the
/// picture. Restored only into the console it was taken of, in the same process; a state
/// for files and other processes is [`crate::savestate`]'s.
#[derive(Clone, Debug, Default)]
pub struct ConsoleSnapshot {
    machine: Option<Box<Machine>>,
    heap: HeapSnapshot,
    framebuffer: Framebuffer,
    shown_palette: Vec<u32>,
    fault: Option<ScriptError>,
}

impl ConsoleSnapshot {
    /// Bytes the snapshot holds besides the hardware's memory (the Lua heap, the picture,
    /// the hardware's fixed part).
    pub fn bytes(&self) -> usize {
        self.heap.len()
            + SCREEN_W * SCREEN_H
            + self.shown_palette.len() * 4
            + std::mem::size_of::<Machine>()
    }

    /// The Lua heap's part.
    pub fn heap(&self) -> &HeapSnapshot {
        &self.heap
    }

    /// The vblank count it was taken at.
    pub fn vblanks(&self) -> u64 {
        self.machine.as_ref().map_or(0, |m| m.vblanks)
    }
}

impl Console {
    /// Powers on with `cart`: loads its graphics, runs its main chunk and `init()`.
    pub fn new(cart: Cart) -> Result<Console, ScriptError> {
        Console::start(Arc::new(cart), SaveRam::default())
    }

    /// Powers on with `cart` and save RAM holding `save` (as stored for the cart's
    /// `save_id`), which the main chunk and `init()` already see.
    pub(crate) fn with_save(cart: Cart, save: SaveRam) -> Result<Console, ScriptError> {
        Console::start(Arc::new(cart), save)
    }

    fn start(cart: Arc<Cart>, save: SaveRam) -> Result<Console, ScriptError> {
        let mut video = Video::default();
        video.palette = cart.palette.clone();
        video.patterns = cart.patterns.clone();
        if cart.manifest.plane == crate::cart::manifest::Plane::Canvas {
            video = video.with_canvas();
        }
        if cart.pico8.is_some() {
            for (index, rgb) in crate::pico8::palette_colors() {
                video.palette.set(index as u8, rgb);
            }
        }
        let mut machine = Box::new(Machine::new(video, cart.manifest.seed));
        machine.pico8 = cart.pico8.as_deref().map(|rom| {
            let mut pico8 = Box::new(crate::pico8::Pico8::new(rom));
            // PICO-8 seeds its generator at random; Kairo from the cart's seed, so runs repeat.
            pico8.srand_bits(machine.rng.next_u64() as u32);
            pico8
        });
        machine.save = save.clone();
        let context = CallContext {
            cap: INIT_CAP,
            ..CallContext::default()
        };
        let script = Script::new(cart.clone())?;
        let mut console = Console {
            shown_palette: machine.video.palette.rgba_words(),
            cart,
            lent: Some((machine, context)),
            script,
            framebuffer: Framebuffer::default(),
            fault: None,
            audio: Vec::new(),
            profiling: false,
            presenting: true,
            audio_us: 0.0,
            profile: None,
            power_on_save: save,
        };
        if console.cart.pico8.is_some() {
            // The main chunk and `_init`, up to their first `flip` if they loop on their own.
            let step = console.with_script(|script, lent| script.pico8_boot(lent))?;
            if step == Pico8Step::Flipped {
                console.machine_mut().present_pico8();
            }
        } else {
            console.with_script(|script, lent| script.run_main(lent))?;
            console.with_script(|script, lent| script.call(lent, "init"))?;
        }
        // What the main chunk and `init()` drew stays on a canvas.
        let (machine, _) = console.lent.as_mut().expect(LENT);
        machine.video.end_frame(&console.cart.fonts);
        let pico8 = console.cart.pico8.is_some();
        let context = console.context_mut();
        context.meter.take();
        context.log.end_frame();
        // PICO-8 has no runaway stop: code that runs long between two `flip`s (or in one
        // `_update`) just runs slowly. A PICO-8 frame gets INIT_CAP, so a slow cart slows
        // down (one vblank per budget used) and only an endless loop is stopped.
        context.cap = if pico8 { INIT_CAP } else { RUNAWAY_CAP };
        Ok(console)
    }

    /// Powers the console off and on again with the same cart; save RAM keeps its contents
    /// (it is battery-backed) and profiling stays as it was.
    pub fn reset(&mut self) -> Result<(), ScriptError> {
        let log = self.take_log();
        let profiling = self.profiling;
        let save = self.machine().save.clone();
        *self = Console::start(self.cart.clone(), save)?;
        self.context_mut().log.prepend(log);
        self.set_profiling(profiling);
        Ok(())
    }

    /// Turns the profiler on or off. While on, every frame leaves a [`FrameProfile`] for
    /// [`Console::take_profile`], with script cycles split by Lua function. Profiling costs
    /// host time only: the machine runs exactly the same.
    pub fn set_profiling(&mut self, on: bool) {
        self.profiling = on;
        self.context_mut().profile.sampling = on;
        if !on {
            self.profile = None;
        }
    }

    /// Takes the whole console as it stands into `snapshot` (reusing its memory): well
    /// under a millisecond for the bundled carts (see docs/state.md).
    pub fn snapshot_into(&self, snapshot: &mut ConsoleSnapshot) {
        match &mut snapshot.machine {
            Some(machine) => machine.as_mut().clone_from(self.machine()),
            none => *none = Some(Box::new(self.machine().clone())),
        }
        self.script.snapshot_into(&mut snapshot.heap);
        snapshot.framebuffer.clone_from(&self.framebuffer);
        snapshot.shown_palette.clear();
        snapshot
            .shown_palette
            .extend_from_slice(&self.shown_palette);
        snapshot.fault.clone_from(&self.fault);
    }

    /// The whole console as it stands.
    pub fn snapshot(&self) -> ConsoleSnapshot {
        let mut snapshot = ConsoleSnapshot::default();
        self.snapshot_into(&mut snapshot);
        snapshot
    }

    /// Puts the console back as `snapshot` (taken of this console) holds it; it then runs on
    /// exactly as it did from there. Audio not yet taken is dropped.
    pub fn restore(&mut self, snapshot: &ConsoleSnapshot) -> Result<(), RestoreError> {
        let machine = snapshot.machine.as_ref().ok_or(RestoreError::OtherState)?;
        self.script.restore(&snapshot.heap)?;
        self.lent
            .as_mut()
            .expect(LENT)
            .0
            .as_mut()
            .clone_from(machine);
        self.framebuffer.clone_from(&snapshot.framebuffer);
        self.shown_palette.copy_from_slice(&snapshot.shown_palette);
        self.fault.clone_from(&snapshot.fault);
        self.audio.clear();
        self.audio_us = 0.0;
        self.profile = None;
        Ok(())
    }

    /// Whether the profiler is on.
    pub fn profiling(&self) -> bool {
        self.profiling
    }

    /// Whether frames are drawn and heard (the default). A replay nobody watches turns it
    /// off: frames are composed only to count their work, which is charged as usual, the
    /// picture is left as it was, and the sound moves on without mixing a sample (so no
    /// audio is left to take); [`Console::present`] draws the current picture when it is
    /// turned back on.
    pub(crate) fn set_presenting(&mut self, on: bool) {
        self.presenting = on;
        if on {
            self.present();
        }
    }

    /// Draws the picture of the machine as it stands (the last frame's) into the framebuffer.
    pub(crate) fn present(&mut self) {
        let machine = &self.lent.as_ref().expect(LENT).0;
        machine
            .video
            .compose(&mut self.framebuffer, &self.cart.fonts);
        self.shown_palette = machine.video.palette.rgba_words();
    }

    /// Plays `inputs` one vblank each (all of them, faulted or not, as a run would) without
    /// drawing, then draws the picture the machine ends on; logs and sound are dropped.
    /// Returns the first fault met. After a fault the picture drawn is the faulting frame's
    /// unfinished one, not the one before it a watched run would still show.
    pub fn replay(&mut self, inputs: &[InputFrame]) -> Result<(), ScriptError> {
        self.presenting = false;
        let mut result = Ok(());
        for &input in inputs {
            let tick = self.tick(input);
            self.take_log();
            if let (Err(e), Ok(())) = (tick, &result) {
                result = Err(e);
            }
        }
        self.take_audio();
        self.presenting = true;
        self.present();
        result
    }

    /// The profile of the frame run last, once (while profiling).
    pub fn take_profile(&mut self) -> Option<FrameProfile> {
        self.profile.take()
    }

    /// Runs one machine frame with `input`: `update()`, `draw()`, then composition.
    /// After a script fault every call returns that fault until [`Console::reset`].
    pub fn run_frame(&mut self, input: InputFrame) -> Result<FrameReport, ScriptError> {
        if let Some(fault) = &self.fault {
            return Err(fault.clone());
        }
        {
            let (machine, context) = self.lent.as_mut().expect(LENT);
            machine.begin_frame(input);
            context.meter.take();
            // The vblanks mixed since the last frame are this frame's audio work.
            context
                .meter
                .charge(Unit::Audio, std::mem::take(&mut machine.audio_owed));
            context.profile.discard_frame();
        }
        let mut clock = HostClock::start(self.profiling);
        let mut host = HostTimes {
            audio_us: std::mem::take(&mut self.audio_us),
            ..HostTimes::default()
        };
        // A PICO-8 cart's own code, at its frame rate: `Some(None)` on a 30 fps cart's
        // frames between.
        let mut menu_choice = None;
        let machine = &mut self.lent.as_mut().expect(LENT).0;
        let input = machine.input;
        let pico8_update = match machine.pico8.as_deref_mut() {
            Some(pico8) => {
                pico8.note_menu_choice(&input.current);
                let update = pico8.next_frame(self.script.defines("_update60"));
                if update.is_some() {
                    pico8.latch_buttons(&input);
                    menu_choice = pico8.menu_pending.take();
                }
                Some(update)
            }
            None => None,
        };
        // A pause-menu item chosen since the last PICO-8 frame: its callback, before _update.
        let chosen = match menu_choice {
            Some(item) => self
                .with_script(|script, lent| script.call_menu_item(lent, item, 32))
                .map(|_| ()),
            None => Ok(()),
        };
        let mut scripted = match (chosen, pico8_update) {
            (Err(e), _) => Err(e),
            (Ok(()), None) => self
                .with_script(|script, lent| script.call(lent, "update"))
                .map(|_| None),
            (Ok(()), Some(None)) => Ok(None),
            (Ok(()), Some(Some(update))) => self
                .with_script(|script, lent| script.pico8_step(lent, update))
                .map(Some),
        };
        host.script_us += clock.lap();
        if let Ok(step) = scripted {
            let (machine, context) = self.lent.as_mut().expect(LENT);
            let patterns = self.cart.bullet_patterns.patterns();
            context
                .meter
                .charge(Unit::Bullets, machine.step_bullets(patterns));
            host.bullets_us = clock.lap();
            scripted = match (pico8_update, step) {
                (None, _) => self
                    .with_script(|script, lent| script.call(lent, "draw"))
                    .map(|_| None),
                (Some(Some(update)), Some(Pico8Step::Updated)) => self
                    .with_script(|script, lent| script.pico8_step(lent, update))
                    .map(Some),
                (_, step) => Ok(step),
            };
            host.script_us += clock.lap();
            if let Ok(Some(Pico8Step::Ended | Pico8Step::Flipped)) = scripted {
                // What the cart drew this PICO-8 frame shows.
                let (machine, context) = self.lent.as_mut().expect(LENT);
                machine.present_pico8();
                context.meter.charge(Unit::Video, cost::PICO8_SCREEN);
            }
        }
        self.context_mut().log.end_frame();
        if let Err(e) = scripted {
            self.fault = Some(e.clone());
            self.machine_mut().frame += 1;
            return Err(e);
        }
        let (machine, context) = self.lent.as_mut().expect(LENT);
        let now = context.meter.cycles();
        for name in context.profile.close_open(now) {
            context.log.push_system(format!(
                "kairo: section \"{name}\" was still open at the end of frame {}; closed there \
                 (reported once)",
                machine.frame
            ));
        }
        machine.hand_bullets_to_video();
        machine.video.end_frame(&self.cart.fonts);
        machine.video.anims.update(machine.frame);
        let work = if self.presenting {
            let work = machine
                .video
                .compose(&mut self.framebuffer, &self.cart.fonts);
            self.shown_palette = machine.video.palette.rgba_words();
            work
        } else {
            machine.video.compose_work()
        };
        host.video_us = clock.lap();
        context.meter.charge(Unit::Video, work.cycles());
        context.meter.charge(Unit::System, cost::FRAME_OUT);
        let cycles = context.meter.take();
        let report = FrameReport {
            frame: machine.frame,
            cycles,
            vblanks: vblanks_for(cycles.total()),
            bullets_live: machine.bullets.stats.live,
            bullets_dropped: machine.bullets.stats.dropped,
            sprites_dropped: machine.video.sprites_dropped,
        };
        machine.frame += 1;
        let (mut functions, sections) = context.profile.take_frame();
        if self.profiling {
            let placed: u64 = functions.iter().map(|(_, c)| c).sum();
            let outside = cycles.get(Unit::Script).saturating_sub(placed);
            if outside > 0 {
                functions.push((Arc::from(OUTSIDE_LUA), outside));
            }
            self.profile = Some(FrameProfile {
                frame: report.frame,
                vblanks: report.vblanks,
                units: cycles,
                video: VideoSplit {
                    layers: work.layer_cycles,
                    sprites: work.sprite_cycles(),
                    writes: cycles.get(Unit::Video).saturating_sub(work.cycles()),
                },
                sprites_dropped: report.sprites_dropped,
                functions,
                sections,
                host,
            });
        }
        Ok(report)
    }

    /// Advances one vblank (1/60 s): starts a machine frame with `input` unless the previous
    /// one is still running.
    pub fn tick(&mut self, input: InputFrame) -> Result<Tick, ScriptError> {
        self.machine_mut().vblanks += 1;
        let tick = if self.machine().busy_vblanks > 0 {
            self.machine_mut().busy_vblanks -= 1;
            Ok(Tick::Busy)
        } else {
            self.run_frame(input).map(|report| {
                self.machine_mut().busy_vblanks = report.vblanks - 1;
                Tick::Frame(report)
            })
        };
        // Sound goes on every vblank, busy or faulted, so music keeps its tempo. A replay
        // nobody watches nobody hears either: the sound moves on without a sample mixed.
        let machine = &mut self.lent.as_mut().expect(LENT).0;
        let mut clock = HostClock::start(self.profiling);
        let cycles = if self.presenting {
            let start = self.audio.len();
            self.audio
                .resize(start + crate::audio::SAMPLES_PER_VBLANK, 0.0);
            let out = &mut self.audio[start..];
            let mut cycles = machine.audio.render_vblank(&self.cart.audio, out);
            if let Some(pico8) = machine.pico8.as_deref_mut() {
                cycles += pico8.render_sound(Some(&mut *out));
                for sample in out.iter_mut() {
                    *sample = sample.clamp(-1.0, 1.0);
                }
            }
            cycles
        } else {
            let pico8 = machine
                .pico8
                .as_deref_mut()
                .map_or(0, |p| p.render_sound(None));
            machine.audio.skip_vblank(&self.cart.audio) + pico8
        };
        machine.audio_owed += cycles;
        self.audio_us += clock.lap();
        tick
    }

    /// The audio `tick` mixed since the last call: interleaved stereo f32 at 48 kHz, 1600
    /// samples per vblank.
    pub fn take_audio(&mut self) -> Vec<f32> {
        std::mem::take(&mut self.audio)
    }

    /// Lends the machine and the call context to the script for one call and takes them
    /// back.
    fn with_script<R>(
        &mut self,
        call: impl FnOnce(&Script, Lent) -> (Lent, Result<R, ScriptError>),
    ) -> Result<R, ScriptError> {
        let lent = self.lent.take().expect(LENT);
        let (lent, result) = call(&self.script, lent);
        self.lent = Some(lent);
        result
    }

    /// A digest of every value the cart's Lua script can reach (see
    /// [`Script::digest`]); `None` when it could not be taken.
    pub fn script_digest(&self) -> Option<u64> {
        self.script.digest()
    }

    /// The hardware state.
    pub fn machine(&self) -> &Machine {
        &self.lent.as_ref().expect(LENT).0
    }

    /// Calls the cart's global function `name` outside any frame, for tests that change
    /// the script's state behind the cart's back (as [`Console::machine_mut`] does the
    /// hardware's); `false` when the cart has no such function.
    pub fn call_global(&mut self, name: &str) -> Result<bool, ScriptError> {
        self.with_script(|script, lent| script.call(lent, name))
    }

    /// The hardware state, for tools and tests that poke it directly.
    pub fn machine_mut(&mut self) -> &mut Machine {
        &mut self.lent.as_mut().expect(LENT).0
    }

    /// Cycles charged so far in the frame being run, all units; after a fault, those of the
    /// frame the fault stopped.
    pub fn cycles_charged(&self) -> u64 {
        self.lent.as_ref().expect(LENT).1.meter.total()
    }

    fn context_mut(&mut self) -> &mut CallContext {
        &mut self.lent.as_mut().expect(LENT).1
    }

    /// The cart running.
    pub fn cart(&self) -> &Cart {
        &self.cart
    }

    /// The last composed picture, as palette indices.
    pub fn framebuffer(&self) -> &Framebuffer {
        &self.framebuffer
    }

    /// The colours of the last composed picture: palette RAM as it was when
    /// [`Console::framebuffer`] was composed, as RGBA words (bytes R, G, B, 255 in memory
    /// order). Pixel `i` of [`Console::rgba`] is `shown_palette()[framebuffer index]`.
    pub fn shown_palette(&self) -> &[u32; PALETTE_ENTRIES] {
        &self.shown_palette
    }

    /// Writes the last composed picture as RGBA (256x256x4 bytes) into `out`.
    pub fn rgba_into(&self, out: &mut [u8]) {
        assert_eq!(out.len(), SCREEN_W * SCREEN_H * 4, "RGBA buffer size");
        for (y, row) in out.chunks_exact_mut(SCREEN_W * 4).enumerate() {
            for (px, &index) in row.chunks_exact_mut(4).zip(self.framebuffer.row(y)) {
                px.copy_from_slice(&self.shown_palette[usize::from(index)].to_ne_bytes());
            }
        }
    }

    /// The last composed picture as RGBA.
    pub fn rgba(&self) -> Vec<u8> {
        let mut out = vec![0; SCREEN_W * SCREEN_H * 4];
        self.rgba_into(&mut out);
        out
    }

    /// Lines the cart logged since the last call.
    pub fn take_log(&mut self) -> Vec<String> {
        self.context_mut().log.take()
    }

    /// Save RAM as it was at the last power-on or reset.
    pub(crate) fn power_on_save(&self) -> &SaveRam {
        &self.power_on_save
    }

    /// The script fault that stopped the cart, if any.
    pub fn fault(&self) -> Option<&ScriptError> {
        self.fault.as_ref()
    }

    /// Vblanks ticked since power-on.
    pub fn vblanks(&self) -> u64 {
        self.machine().vblanks
    }

    /// Bytes the cart's Lua state uses.
    pub fn script_memory(&self) -> usize {
        self.script.memory()
    }

    /// Cycles per frame before slowdown.
    pub const fn budget() -> u64 {
        FRAME_BUDGET
    }
}

/// Measures host time between laps, in microseconds, when profiling (else reads 0 and never
/// touches the clock).
struct HostClock(Option<std::time::Instant>);

impl HostClock {
    fn start(on: bool) -> HostClock {
        HostClock(on.then(std::time::Instant::now))
    }

    /// Microseconds since the start or the previous lap.
    fn lap(&mut self) -> f32 {
        let Some(last) = self.0 else {
            return 0.0;
        };
        let now = std::time::Instant::now();
        self.0 = Some(now);
        (now - last).as_secs_f32() * 1e6
    }
}
