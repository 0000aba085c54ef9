//! Sound output through `cpal`: the machine's 48 kHz stereo, resampled to the device's rate,
//! through a ring buffer of about 2 x 50 ms kept half full by [`RateControl`]. The buffer is
//! primed with silence before the stream starts; when it runs dry (a pause, a stall) the
//! output fades out instead of clicking, counts an underrun, and fades back in. With no
//! device, or any cpal error, the console runs silent after one warning.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use ringbuf::HeapRb;
use ringbuf::traits::{Consumer, Observer, Producer, Split};

use super::HostError;
use super::rate::{MACHINE_RATE, RateControl, Resampler};

/// Samples of a fade in or out (about 1.3 ms at 48 kHz).
const FADE: f32 = 64.0;

/// Runs `f` with the process's stderr pointed at /dev/null (Unix), restoring it afterwards.
#[cfg(unix)]
fn quiet_stderr<T>(f: impl FnOnce() -> T) -> T {
    // SAFETY: dup/open/dup2/close on file descriptors the process owns; stderr is restored
    // before returning, and nothing else here writes to it meanwhile.
    unsafe {
        let saved = libc::dup(2);
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_WRONLY);
        if saved < 0 || null < 0 {
            return f();
        }
        libc::dup2(null, 2);
        libc::close(null);
        let result = f();
        libc::dup2(saved, 2);
        libc::close(saved);
        result
    }
}

#[cfg(not(unix))]
fn quiet_stderr<T>(f: impl FnOnce() -> T) -> T {
    f()
}

/// Smooths the edges of the sound when the buffer runs dry and when it refills.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fader {
    gain: f32,
    last: [f32; 2],
    dry: bool,
}

impl Fader {
    /// `stereo` holds `got` frames from the buffer and then room the buffer could not fill:
    /// fades the filled part in after a dry spell and the missing part out from the last
    /// sample heard. Returns true when this call started a dry spell (an underrun).
    pub fn fill(&mut self, stereo: &mut [f32], got: usize) -> bool {
        let (heard, missing) = stereo.split_at_mut(got * 2);
        for frame in heard.chunks_mut(2) {
            self.gain = (self.gain + 1.0 / FADE).min(1.0);
            self.last = [frame[0], frame[1]];
            frame[0] *= self.gain;
            frame[1] *= self.gain;
        }
        let started_dry = !missing.is_empty() && !self.dry;
        self.dry = !missing.is_empty();
        for frame in missing.chunks_mut(2) {
            self.gain = (self.gain - 1.0 / FADE).max(0.0);
            frame[0] = self.last[0] * self.gain;
            frame[1] = self.last[1] * self.gain;
        }
        started_dry
    }
}

/// The sound card, if one could be opened.
pub struct AudioOut {
    _stream: cpal::Stream,
    producer: ringbuf::HeapProd<f32>,
    device_rate: f64,
    resampler: Resampler,
    control: RateControl,
    scratch: Vec<f32>,
    /// Times the device found the buffer empty.
    pub underruns: Arc<AtomicU64>,
}

impl AudioOut {
    /// Opens the default output device; `None` (after one warning line) when there is none
    /// or it cannot play.
    pub fn open() -> Option<AudioOut> {
        // ALSA prints its own complaints to stderr when there is no device; keep them quiet
        // while probing, so a machine without sound gets exactly one line from us.
        let opened = quiet_stderr(AudioOut::try_open);
        match opened {
            Ok(out) => Some(out),
            Err(error) => {
                crate::out::eprint_line(&format!("kairo: {error}"));
                None
            }
        }
    }

    /// Opens the default output device, printing nothing: the caller reports the error.
    pub fn open_quietly() -> Result<AudioOut, HostError> {
        quiet_stderr(AudioOut::try_open)
    }

    fn try_open() -> Result<AudioOut, HostError> {
        let host = cpal::default_host();
        let device = host
            .default_output_device()
            .ok_or_else(|| HostError::NoSound("no output device".into()))?;
        let supported = device
            .default_output_config()
            .map_err(|e| HostError::NoSound(e.to_string()))?;
        if supported.sample_format() != cpal::SampleFormat::F32 {
            return Err(HostError::NoSound(format!(
                "the device wants {:?} samples, not f32",
                supported.sample_format()
            )));
        }
        let mut config = supported.config();
        let channels = usize::from(config.channels.max(1));
        // A power-of-two buffer where the device allows one.
        if let cpal::SupportedBufferSize::Range { min, max } = supported.buffer_size() {
            let wanted = 1024u32.clamp(*min, *max).next_power_of_two().min(*max);
            config.buffer_size = cpal::BufferSize::Fixed(wanted);
        }
        let device_rate = f64::from(config.sample_rate);
        let capacity_frames = (2.0 * 0.05 * device_rate) as usize;
        let (mut producer, mut consumer) = HeapRb::<f32>::new(capacity_frames * 2).split();
        // Prime: half a buffer of silence before the first callback.
        producer.push_slice(&vec![0.0; capacity_frames]);
        let underruns = Arc::new(AtomicU64::new(0));
        let counter = underruns.clone();
        let mut fader = Fader::default();
        let mut stereo: Vec<f32> = Vec::with_capacity(8192);
        let stream = device
            .build_output_stream(
                config,
                move |data: &mut [f32], _: &cpal::OutputCallbackInfo| {
                    let frames = data.len() / channels;
                    stereo.resize(frames * 2, 0.0);
                    let got = consumer.pop_slice(&mut stereo) / 2;
                    if fader.fill(&mut stereo, got) {
                        counter.fetch_add(1, Ordering::Relaxed);
                    }
                    for (out, frame) in data.chunks_mut(channels).zip(stereo.chunks(2)) {
                        match out.len() {
                            1 => out[0] = (frame[0] + frame[1]) * 0.5,
                            _ => {
                                out[0] = frame[0];
                                out[1] = frame[1];
                                out[2..].fill(0.0);
                            }
                        }
                    }
                },
                |e| crate::out::eprint_line(&format!("kairo: sound stream error: {e}")),
                None,
            )
            .map_err(|e| HostError::NoSound(e.to_string()))?;
        stream
            .play()
            .map_err(|e| HostError::NoSound(e.to_string()))?;
        Ok(AudioOut {
            _stream: stream,
            producer,
            device_rate,
            resampler: Resampler::default(),
            control: RateControl::new(capacity_frames as f64 / 2.0),
            scratch: Vec::new(),
            underruns,
        })
    }

    /// Queues one or more vblanks of machine audio (interleaved stereo at 48 kHz).
    pub fn push(&mut self, samples: &[f32]) {
        if samples.is_empty() {
            return;
        }
        let fill = self.producer.occupied_len() as f64 / 2.0;
        let ratio = self.device_rate / MACHINE_RATE * self.control.adjust(fill);
        self.scratch.clear();
        self.resampler.process(samples, ratio, &mut self.scratch);
        // A full buffer drops what does not fit (the control keeps this from happening).
        self.producer.push_slice(&self.scratch);
    }
}

/// Plays machine audio from `next` through `out` until `next` says it is over: `next` mixes
/// one vblank into its buffer (1600 samples) and returns false at the end. Vblanks are queued
/// at 60 a second on the wall clock (absolute deadlines: the sound card is never the clock),
/// then the queue is given time to drain.
pub fn play_to_end(mut out: AudioOut, mut next: impl FnMut(&mut [f32]) -> bool) {
    use std::time::{Duration, Instant};
    let vblank = Duration::from_secs(1) / crate::spec::FRAME_RATE;
    let mut buffer = vec![0.0; crate::spec::SAMPLES_PER_VBLANK];
    let mut due = Instant::now();
    while next(&mut buffer) {
        out.push(&buffer);
        due += vblank;
        let now = Instant::now();
        match due.checked_duration_since(now) {
            Some(wait) => std::thread::sleep(wait),
            // Far behind (the process was stopped): start counting again from now.
            None if now - due > vblank * 3 => due = now,
            None => {}
        }
    }
    let give_up = Instant::now() + Duration::from_millis(500);
    while out.producer.occupied_len() > 0 && Instant::now() < give_up {
        std::thread::sleep(Duration::from_millis(5));
    }
    // What the device took last is still in its own buffer.
    std::thread::sleep(Duration::from_millis(60));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dry_buffer_fades_out_counts_once_and_fades_back_in() {
        let mut fader = Fader::default();
        let mut full = vec![0.5f32; 256];
        assert!(!fader.fill(&mut full, 128));
        assert!(
            full[0] < 0.05 && (full[255] - 0.5).abs() < 1e-6,
            "fades in at start"
        );
        let mut dry = vec![0.5f32; 256];
        assert!(fader.fill(&mut dry, 32), "an underrun");
        let tail: Vec<f32> = dry.chunks(2).skip(32).map(|f| f[0]).collect();
        assert!(
            tail.windows(2).all(|w| w[1] <= w[0]) && tail[0] > 0.4 && *tail.last().unwrap() == 0.0,
            "fades out"
        );
        let mut still_dry = vec![0.0f32; 64];
        assert!(!fader.fill(&mut still_dry, 0), "counted once per dry spell");
        let mut again = vec![0.5f32; 64];
        fader.fill(&mut again, 32);
        assert!(again[0] < 0.05, "fades back in");
    }
}
