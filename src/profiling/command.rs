//! `kairo profile`: runs a cart headless with the profiler on, prints the report and writes
//! the chart, the per-frame JSON and the Perfetto trace; `--max-load` turns it into a gate
//! that fails when any frame goes over a load.

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::history::{History, Summary};
use crate::console::Console;
use crate::error::{Result, ToolError};
use crate::movie::Movie;
use crate::profile::FrameProfile;

/// What `kairo profile` was asked to do.
#[derive(Clone, Debug, Default)]
pub struct ProfileOptions {
    pub cart: PathBuf,
    /// Vblanks to run.
    pub vblanks: u64,
    pub input: Option<PathBuf>,
    pub svg: Option<PathBuf>,
    pub json: Option<PathBuf>,
    pub trace: Option<PathBuf>,
    /// Fail when a frame's load (percent of the budget) is above this.
    pub max_load: Option<f64>,
}

/// What a profile run found.
#[derive(Debug)]
pub struct ProfileOutcome {
    pub frames: Vec<FrameProfile>,
    pub summary: Summary,
    /// The report, as printed.
    pub report: String,
    /// Frames over `--max-load`, as (frame, load).
    pub over_limit: Vec<(u64, f64)>,
}

/// Runs the profile. Cart log lines go to `log` as they come.
pub fn profile(options: &ProfileOptions, log: &mut dyn FnMut(&str)) -> Result<ProfileOutcome> {
    if let Some(limit) = options.max_load
        && !(limit.is_finite() && limit > 0.0)
    {
        return Err(ToolError::MaxLoad(limit));
    }
    let movie = options.input.as_deref().map(Movie::load).transpose()?;
    let cart = crate::cart::Cart::open(&options.cart)?;
    let name = cart.name().to_string();
    let mut console = Console::new(cart)?;
    console.set_profiling(true);

    let mut history = History::unbounded();
    let started = Instant::now();
    let mut fault = None;
    for n in 0..options.vblanks {
        let input = movie
            .as_ref()
            .map_or(crate::input::InputFrame::NONE, |m| m.input(n as usize));
        let result = console.tick(input);
        for line in console.take_log() {
            log(&line);
        }
        console.take_audio();
        if let Some(frame) = console.take_profile() {
            history.push(frame);
        }
        if let Err(e) = result {
            fault = Some(e);
            break;
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    let summary = history.summary();
    let host_fps = (elapsed > 0.0).then(|| history.len() as f64 / elapsed);
    let report = super::report::text(&name, &summary, host_fps);
    let frames: Vec<FrameProfile> = history.frames().cloned().collect();

    let refs: Vec<&FrameProfile> = frames.iter().collect();
    write_output(options.svg.as_deref(), || {
        super::svg::chart(&name, &refs, &summary)
    })?;
    write_output(options.json.as_deref(), || {
        super::json::document(&name, frames.iter(), &summary)
    })?;
    write_output(options.trace.as_deref(), || {
        super::trace::document(&name, frames.iter())
    })?;
    if let Some(fault) = fault {
        return Err(ToolError::StoppedAfter {
            frames: frames.len(),
            fault,
        });
    }
    let over_limit = options.max_load.map_or_else(Vec::new, |limit| {
        frames
            .iter()
            .filter(|p| p.load() > limit)
            .map(|p| (p.frame, p.load()))
            .collect()
    });
    Ok(ProfileOutcome {
        frames,
        summary,
        report,
        over_limit,
    })
}

fn write_output(path: Option<&Path>, make: impl FnOnce() -> String) -> Result<()> {
    let Some(path) = path else {
        return Ok(());
    };
    crate::fsutil::write_atomic(path, make().as_bytes()).map_err(ToolError::write(path))
}
