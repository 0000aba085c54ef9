//! Headless runs: the console stepped vblank by vblank with no window, from a movie or with
//! no input, collecting the frame reports. Used by `kairo headless`, `kairo check`, the
//! profiler and the golden tests.

use std::path::Path;

use crate::console::{Console, FrameReport};
use crate::input::InputFrame;
use crate::meter::{Unit, load_percent};
use crate::movie::Movie;
use crate::session::{Fault, Session};

/// The outcome of a headless run.
#[derive(Debug, Default)]
pub struct Run {
    /// One report per machine frame run.
    pub reports: Vec<FrameReport>,
    /// The fault that stopped the cart, if one did, with its frame.
    pub fault: Option<Fault>,
    /// Every sample the machine produced (interleaved stereo, 48 kHz), when asked for.
    pub audio: Vec<f32>,
}

/// Ticks `session` for `vblanks` vblanks, feeding `input` (no buttons once it ends) and
/// passing every logged line to `log`. Stops early at a script fault. The session's
/// history is the run's input since power-on (for `--record` and states).
pub fn run(
    session: &mut Session,
    vblanks: u64,
    input: Option<&Movie>,
    log: &mut dyn FnMut(&str),
) -> Run {
    run_watched(session, vblanks, input, log, false, &mut |_| {})
}

/// Like [`run`], keeping the audio in [`Run::audio`] if `keep_audio`, and showing the console
/// to `watch` after every vblank (to record its pictures for a GIF, say).
pub fn run_watched(
    session: &mut Session,
    vblanks: u64,
    input: Option<&Movie>,
    log: &mut dyn FnMut(&str),
    keep_audio: bool,
    watch: &mut dyn FnMut(&Console),
) -> Run {
    let mut out = Run::default();
    for n in 0..vblanks {
        let frame_input = input.map_or(InputFrame::NONE, |movie| movie.input(n as usize));
        let vblank = session.tick(frame_input);
        watch(session.console());
        for line in &vblank.log {
            log(line);
        }
        if keep_audio {
            out.audio.extend_from_slice(&vblank.audio);
        }
        if let Some(report) = vblank.frame {
            out.reports.push(report);
        }
        if vblank.fault.is_some() {
            out.fault = vblank.fault;
            break;
        }
    }
    out
}

impl Run {
    /// The fault that stopped the run, naming its frame, as the command line reports it.
    pub fn fault_error(&self) -> Option<crate::error::ToolError> {
        let fault = self.fault.clone()?;
        Some(crate::error::ToolError::FaultAt {
            frame: fault.frame,
            fault: fault.error,
        })
    }

    /// Frames that took more than one vblank.
    pub(crate) fn slowdown_frames(&self) -> impl Iterator<Item = &FrameReport> {
        self.reports.iter().filter(|r| r.slowed_down())
    }

    /// A few lines summing up the run: frames, slowdown, load, mean cycles per unit.
    pub fn summary(&self) -> String {
        let frames = self.reports.len();
        if frames == 0 {
            return "frames 0".into();
        }
        let vblanks: u64 = self.reports.iter().map(|r| u64::from(r.vblanks)).sum();
        let slow: Vec<String> = self
            .slowdown_frames()
            .map(|r| r.frame.to_string())
            .collect();
        let mean_total =
            self.reports.iter().map(FrameReport::total).sum::<u64>() as f64 / frames as f64;
        let peak = self
            .reports
            .iter()
            .max_by_key(|r| r.total())
            .expect("frames > 0");
        let mut text = format!(
            "frames {frames} (vblanks {vblanks}), slowdown frames {}{}\n",
            slow.len(),
            if slow.is_empty() {
                String::new()
            } else {
                format!(" ({})", abbreviate(&slow))
            }
        );
        text += &format!(
            "load: mean {:.1}%, peak {:.1}% (frame {})\n",
            load_percent(mean_total.round() as u64),
            peak.load(),
            peak.frame
        );
        let units: Vec<String> = Unit::ALL
            .iter()
            .map(|&u| {
                let sum: u64 = self.reports.iter().map(|r| r.cycles.get(u)).sum();
                format!("{} {}", u.name(), sum / frames as u64)
            })
            .collect();
        text += &format!("mean cycles per frame: {}", units.join(", "));
        text
    }
}

/// The first few items of a list, then a count of the rest.
fn abbreviate(items: &[String]) -> String {
    const SHOWN: usize = 10;
    if items.len() <= SHOWN {
        items.join(", ")
    } else {
        format!(
            "{}, ... {} more",
            items[..SHOWN].join(", "),
            items.len() - SHOWN
        )
    }
}

/// How a WAV file stores its samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WavFormat {
    /// 32-bit float: exactly the samples the machine mixed (`kairo headless --wav`).
    Float32,
    /// 16-bit integers, rounded (`kairo sound --wav`): what every player reads.
    Pcm16,
}

/// Writes interleaved stereo f32 samples at 48 kHz as a 32-bit float WAV, atomically.
pub fn write_wav(path: &Path, samples: &[f32]) -> crate::error::Result<()> {
    write_wav_as(path, samples, WavFormat::Float32)
}

/// Writes interleaved stereo f32 samples at 48 kHz as a WAV in `format`, atomically.
pub fn write_wav_as(path: &Path, samples: &[f32], format: WavFormat) -> crate::error::Result<()> {
    let failed = |e: hound::Error| crate::error::ToolError::Write {
        path: path.into(),
        source: std::io::Error::other(e),
    };
    let (bits_per_sample, sample_format) = match format {
        WavFormat::Float32 => (32, hound::SampleFormat::Float),
        WavFormat::Pcm16 => (16, hound::SampleFormat::Int),
    };
    let spec = hound::WavSpec {
        channels: 2,
        sample_rate: crate::spec::SAMPLE_RATE,
        bits_per_sample,
        sample_format,
    };
    let mut bytes = std::io::Cursor::new(Vec::new());
    {
        let mut writer = hound::WavWriter::new(&mut bytes, spec).map_err(failed)?;
        for &sample in samples {
            match format {
                WavFormat::Float32 => writer.write_sample(sample),
                WavFormat::Pcm16 => writer
                    .write_sample((sample.clamp(-1.0, 1.0) * f32::from(i16::MAX)).round() as i16),
            }
            .map_err(failed)?;
        }
        writer.finalize().map_err(failed)?;
    }
    crate::fsutil::write_atomic(path, bytes.get_ref()).map_err(crate::error::ToolError::write(path))
}
