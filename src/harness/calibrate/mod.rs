//! The budget's calibration (`kairo bench calibration`): for every Lua library function the
//! sandbox offers and every cart API function, at a small and a hostile size, the host time
//! per charged cycle, as a ratio to a plain Lua loop's on the same build in the same run. A
//! ratio near 1 means the cycle count tells the truth about the work; the budget promises
//! every case stays within [`LIMIT`] times the plain loop, so that a frame reported at 100 %
//! takes a bounded host time whatever the cart calls.
//!
//! Each case is a small cart whose `update()` runs the case's body `reps` times; `reps`
//! doubles until a frame takes [`TARGET_US`] of host time or [`TARGET_CYCLES`] cycles.
//! Times are medians over several frames, less the time and cycles of an empty frame; a case
//! near the limit is measured three times beside the plain loop (up to seven while it still
//! reads within a fifth of the limit), and the fastest of each compared.

mod cases;

use std::collections::BTreeMap;
use std::time::Instant;

pub use cases::{API_CASES, CASES, Case};

use crate::cart::Cart;
use crate::cart::files::CartFiles;
use crate::console::Console;
use crate::input::InputFrame;

/// The most a case may cost in host time per cycle, as a multiple of the plain loop's.
pub const LIMIT: f64 = 10.0;
/// Host time a measured frame aims for, in microseconds.
const TARGET_US: f64 = 3_000.0;
/// Cycles a measured frame aims for (under the runaway cap).
const TARGET_CYCLES: u64 = 400_000;
/// The most times a case near the limit is measured (see [`calibrate`]).
const MAX_TRIES: usize = 7;
/// Frames timed per measurement (the median counts).
const FRAMES: usize = 7;

/// One case measured.
#[derive(Clone, Debug)]
pub struct Measured {
    pub name: String,
    /// Nanoseconds of host time per charged cycle.
    pub ns_per_cycle: f64,
    /// Cycles and host microseconds of one repetition of the body.
    pub cycles_per_rep: f64,
    pub us_per_rep: f64,
    /// `ns_per_cycle` over the plain loop's.
    pub ratio: f64,
}

/// The calibration: the plain loop's figure and every case's.
#[derive(Clone, Debug)]
pub struct Calibration {
    pub plain_ns_per_cycle: f64,
    pub cases: Vec<Measured>,
}

impl Calibration {
    /// The case with the highest ratio.
    pub fn worst(&self) -> Option<&Measured> {
        self.cases.iter().max_by(|a, b| a.ratio.total_cmp(&b.ratio))
    }

    /// The longest a frame reported at 100 % load can take on this host, in milliseconds:
    /// the worst case's host time per cycle times the budget.
    pub(crate) fn full_frame_ms(&self) -> f64 {
        let worst = self
            .cases
            .iter()
            .map(|m| m.ns_per_cycle)
            .fold(self.plain_ns_per_cycle, f64::max);
        worst * crate::spec::FRAME_BUDGET as f64 / 1e6
    }

    /// One line per case, worst first: ratio, ns per cycle, cycles and host time per call.
    pub fn table(&self) -> String {
        let mut cases: Vec<&Measured> = self.cases.iter().collect();
        cases.sort_by(|a, b| b.ratio.total_cmp(&a.ratio));
        let worst = cases.first().map_or("none", |m| m.name.as_str());
        let mut out = format!(
            "plain Lua loop: {:.2} ns per cycle; worst case: {worst}; a frame at 100 % load takes at most {:.1} ms here\n{:>7} {:>9} {:>12} {:>11}  case\n",
            self.plain_ns_per_cycle,
            self.full_frame_ms(),
            "ratio",
            "ns/cycle",
            "cycles/call",
            "us/call"
        );
        for m in cases {
            out += &format!(
                "{:>7.2} {:>9.2} {:>12.0} {:>11.2}  {}\n",
                m.ratio, m.ns_per_cycle, m.cycles_per_rep, m.us_per_rep, m.name
            );
        }
        out
    }
}

/// Runs the calibration over `cases` (all of [`CASES`] by default), reporting progress to
/// `progress`.
///
/// The plain loop is measured again next to every case (the machine's speed drifts with its
/// load), and each case is compared with the plain loop measured beside it.
pub fn calibrate(cases: &[Case], progress: &mut dyn FnMut(&Measured)) -> Calibration {
    let empty = measure_frame(&Case::new("empty", "", ""), 0);
    let plain = Case::plain_loop();
    let mut plains = Vec::with_capacity(cases.len());
    let mut out = Calibration {
        plain_ns_per_cycle: 0.0,
        cases: Vec::new(),
    };
    for case in cases {
        // A case near the limit is measured again, each time beside the plain loop: twice
        // more, and up to [`MAX_TRIES`] while it still reads near the limit. The host's
        // other work only ever adds time, to the case or to the loop: the fastest of each is
        // its cost, and their ratio the case's.
        let mut tries: Vec<Measured> = Vec::new();
        let mut fastest_plain = f64::INFINITY;
        let mut fastest_case = f64::INFINITY;
        for n in 1..=MAX_TRIES {
            let beside = measure(&plain, &empty).ns_per_cycle;
            plains.push(beside);
            fastest_plain = fastest_plain.min(beside);
            let m = measure(case, &empty);
            fastest_case = fastest_case.min(m.ns_per_cycle);
            tries.push(m);
            let ratio = fastest_case / fastest_plain;
            if (n == 1 && ratio < LIMIT / 2.0) || (n >= 3 && ratio < LIMIT * 0.8) {
                break;
            }
        }
        tries.sort_by(|a, b| a.ns_per_cycle.total_cmp(&b.ns_per_cycle));
        let mut m = tries.swap_remove(0);
        m.ratio = m.ns_per_cycle / fastest_plain;
        progress(&m);
        out.cases.push(m);
    }
    out.plain_ns_per_cycle = if plains.is_empty() {
        measure(&plain, &empty).ns_per_cycle
    } else {
        median(plains)
    };
    out
}

/// Host microseconds and cycles of one frame (medians).
#[derive(Clone, Copy, Debug)]
struct Frame {
    us: f64,
    cycles: f64,
}

/// Measures `case`, doubling its repetitions until a frame is long enough.
fn measure(case: &Case, empty: &Frame) -> Measured {
    let mut reps = 1u64;
    loop {
        let frame = measure_frame(case, reps);
        let (us, cycles) = (frame.us - empty.us, frame.cycles - empty.cycles);
        let done = frame.us >= TARGET_US || frame.cycles >= TARGET_CYCLES as f64 || reps >= 1 << 24;
        if done {
            let cycles = cycles.max(1.0);
            return Measured {
                name: case.name.to_string(),
                ns_per_cycle: us.max(0.0) * 1000.0 / cycles,
                cycles_per_rep: cycles / reps as f64,
                us_per_rep: us.max(0.0) / reps as f64,
                ratio: 1.0,
            };
        }
        // Aim straight for the target from what one frame took.
        let scale =
            (TARGET_US / frame.us.max(1.0)).min(TARGET_CYCLES as f64 / frame.cycles.max(1.0));
        reps = (reps as f64 * scale.clamp(2.0, 64.0)) as u64;
    }
}

/// The median frame of `case` run `reps` times per frame (after one frame to warm up). A
/// frame the runaway cap stops counts with the cycles charged until the stop and the time
/// it took (a fresh console runs the next one).
fn measure_frame(case: &Case, reps: u64) -> Frame {
    let cart = case.cart(reps);
    let boot = || match Console::new(cart.clone()) {
        Ok(console) => console,
        Err(e) => panic!("calibration case {}: {e}", case.name),
    };
    let mut console = boot();
    let mut times = Vec::with_capacity(FRAMES);
    let mut cycles = Vec::with_capacity(FRAMES);
    for n in 0..=FRAMES {
        let start = Instant::now();
        let result = console.run_frame(InputFrame::NONE);
        let us = start.elapsed().as_secs_f64() * 1e6;
        let charged = match result {
            Ok(report) => report.total(),
            Err(crate::script::ScriptError::Runaway { .. }) => {
                let charged = console.cycles_charged();
                console = boot();
                charged
            }
            Err(e) => panic!("calibration case {}: {e}", case.name),
        };
        if n > 0 {
            times.push(us);
            cycles.push(charged as f64);
        }
    }
    Frame {
        us: median(times),
        cycles: median(cycles),
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

impl Case {
    /// The cart that runs this case `reps` times in each `update()`.
    pub fn cart(&self, reps: u64) -> Cart {
        let main = format!(
            "{setup}\nfunction update()\n  for _ = 1, {reps} do\n    {body}\n  end\nend\n",
            setup = self.setup,
            body = self.body
        );
        let mut files = BTreeMap::new();
        for (path, bytes) in cases::assets() {
            files.insert(path, bytes);
        }
        files.insert("main.lua".to_string(), main.into_bytes());
        Cart::from_files(CartFiles::from_map("calibration", files))
            .unwrap_or_else(|e| panic!("calibration case {}: {e}", self.name))
    }
}
