//! The audio unit, measured from rendered samples: pitch, envelope timing, band-limiting,
//! clicks, sequencing, and a reference tune's coarse loudness profile.

use std::sync::Arc;

use super::mml::{Pos, compile};
use super::voice::{Envelope, SAMPLE_RATE, Voice, Wave, frequency};
use super::*;

/// A voice with `wave` at full volume.
fn voice_of(wave: Wave) -> Voice {
    let mut voice = Voice::default();
    voice.wave = wave;
    voice.volume = 1.0;
    voice.table = sine_table();
    voice
}

/// `seconds` of `voice` playing MIDI note `pitch`, as mono samples (the left channel).
fn render_note(mut voice: Voice, pitch: f64, seconds: f64) -> Vec<f64> {
    voice.pan = 0.0;
    voice.note_on(pitch, false);
    let frames = (seconds * SAMPLE_RATE) as usize;
    let mut out = vec![0.0f32; frames * 2];
    voice.render(&mut out, 1.0);
    out.chunks(2).map(|f| f64::from(f[0])).collect()
}

/// Frequency from the times of rising zero crossings (interpolated), skipping the attack.
fn measured_frequency(samples: &[f64]) -> f64 {
    let mean = samples.iter().sum::<f64>() / samples.len() as f64;
    let mut crossings = Vec::new();
    for i in 1000..samples.len() {
        let (a, b) = (samples[i - 1] - mean, samples[i] - mean);
        if a < 0.0 && b >= 0.0 {
            crossings.push(i as f64 - 1.0 + a / (a - b));
        }
    }
    let span = crossings.last().unwrap() - crossings.first().unwrap();
    (crossings.len() - 1) as f64 * SAMPLE_RATE / span
}

fn sine_table() -> [u8; 32] {
    let mut table = [0; 32];
    for (i, v) in table.iter_mut().enumerate() {
        *v = (7.5 + 7.5 * crate::math::sine(i as f64 * std::f64::consts::PI / 16.0)).round() as u8;
    }
    table
}

#[test]
fn every_waveform_sounds_at_its_note_within_half_a_percent() {
    let waves = [
        Wave::Pulse(0),
        Wave::Pulse(1),
        Wave::Pulse(2),
        Wave::Pulse(3),
        Wave::Triangle,
        Wave::Saw,
        Wave::Table,
    ];
    for wave in waves {
        for pitch in [45.0, 57.0, 69.0, 81.0, 93.0] {
            let voice = voice_of(wave);
            let f = measured_frequency(&render_note(voice, pitch, 1.0));
            let expected = frequency(pitch);
            assert!(
                (f / expected - 1.0).abs() < 0.005,
                "{wave:?} note {pitch}: {f} Hz, expected {expected}"
            );
        }
    }
    assert!((frequency(69.0) - 440.0).abs() < 1e-9);
    assert!((frequency(60.0) - 261.625_565_300_598_6).abs() < 1e-9);
}

#[test]
fn noise_is_noise_and_short_mode_repeats() {
    let samples = |short| render_note(voice_of(Wave::Noise { short }), 69.0, 4.0);
    let long = samples(false);
    let short = samples(true);
    let zero_mean = long.iter().sum::<f64>().abs() / long.len() as f64;
    assert!(
        zero_mean < 0.1,
        "long noise is roughly centred: {zero_mean}"
    );
    // Short mode: the LFSR sequence repeats every 93 steps; 8 steps per note cycle at 440 Hz
    // is 3520 steps a second, so the waveform repeats every 93 / 3520 s.
    let period = (93.0 / 3520.0 * SAMPLE_RATE).round() as usize;
    let a = &short[10_000..10_000 + 400];
    let b = &short[10_000 + period..10_000 + period + 400];
    let same = a
        .iter()
        .zip(b)
        .filter(|(x, y)| (*x - *y).abs() < 1e-9)
        .count();
    assert!(same > 360, "short noise repeats: {same}/400");
}

/// Peak of |sample| in windows of 48 samples (1 ms).
fn amplitude(samples: &[f64]) -> Vec<f64> {
    samples
        .chunks(48)
        .map(|w| w.iter().fold(0.0f64, |m, s| m.max(s.abs())))
        .collect()
}

#[test]
fn envelope_stages_take_their_times() {
    let envelope = Envelope {
        attack: 4800.0,
        decay: 4800.0,
        sustain: 0.5,
        release: 9600.0,
    };
    let mut voice = voice_of(Wave::Pulse(2));
    voice.envelope = envelope;
    voice.note_on(69.0, false);
    let mut out = vec![0.0f32; 2 * 24_000];
    voice.render(&mut out, 1.0);
    voice.note_off();
    let mut tail = vec![0.0f32; 2 * 14_400];
    voice.render(&mut tail, 1.0);
    let level = |buffer: &[f32], at_ms: usize| {
        amplitude(
            &buffer
                .chunks(2)
                .map(|f| f64::from(f[0]))
                .collect::<Vec<_>>(),
        )[at_ms]
    };
    assert!(
        (level(&out, 50) - 0.5).abs() < 0.05,
        "half-way through the attack: {}",
        level(&out, 50)
    );
    assert!(level(&out, 99) > 0.95, "attack peak");
    assert!(
        (level(&out, 150) - 0.75).abs() < 0.05,
        "half-way through the decay"
    );
    assert!((level(&out, 400) - 0.5).abs() < 0.02, "sustain");
    assert!(
        (level(&tail, 100) - 0.25).abs() < 0.03,
        "half-way through the release"
    );
    assert!(level(&tail, 210) < 1e-9, "silent after the release");
    assert!(!voice.sounding());
}

#[test]
fn notes_start_and_stop_without_clicks() {
    // The default envelope ramps over at least 2 ms each way (a square wave shows the level).
    let mut voice = voice_of(Wave::Pulse(2));
    voice.note_on(57.0, false);
    let mut start = vec![0.0f32; 2 * 96];
    voice.render(&mut start, 1.0);
    let first_ms: Vec<f64> = start
        .chunks(2)
        .take(48)
        .map(|f| f64::from(f[0]).abs())
        .collect();
    assert!(
        first_ms.iter().all(|&s| s <= 0.51),
        "the first millisecond stays below half level"
    );
    voice.cut();
    let mut stop = vec![0.0f32; 2 * 200];
    voice.render(&mut stop, 1.0);
    let env = amplitude(&stop.chunks(2).map(|f| f64::from(f[0])).collect::<Vec<_>>());
    assert!(
        env[0] > 0.4 && env[1] < 0.6 && env[2] < 1e-9,
        "a 2 ms fade: {env:?}"
    );
}

/// Energy of `samples` at frequency `f` (a single-bin DFT with a Hann window).
fn energy_at(samples: &[f64], f: f64) -> f64 {
    let n = samples.len() as f64;
    let (mut re, mut im) = (0.0, 0.0);
    for (i, s) in samples.iter().enumerate() {
        let w = 0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / n).cos();
        let angle = 2.0 * std::f64::consts::PI * f * i as f64 / SAMPLE_RATE;
        re += s * w * angle.cos();
        im -= s * w * angle.sin();
    }
    re * re + im * im
}

#[test]
fn a_high_pulse_does_not_alias_into_noise() {
    // A 3520 Hz pulse: harmonics above 24 kHz would fold back between the real ones.
    let samples = render_note(voice_of(Wave::Pulse(1)), 105.0, 0.2);
    let window = &samples[2400..2400 + 4800];
    let f0 = frequency(105.0);
    let (mut harmonic, mut other) = (0.0, 0.0);
    let mut f = 50.0;
    while f < 23_950.0 {
        let e = energy_at(window, f);
        let nearest = (f / f0).round() * f0;
        if (f - nearest).abs() < 120.0 && nearest > 0.0 {
            harmonic += e;
        } else {
            other += e;
        }
        f += 50.0;
    }
    let ratio = other / harmonic;
    assert!(
        ratio < 0.01,
        "energy between the harmonics is {:.3} % of the harmonics'",
        ratio * 100.0
    );
}

fn library(music: &[(&str, &[&str])], sounds: &[(&str, &str)]) -> AudioLibrary {
    let compile_one = |t: &str| Arc::new(compile(t, Pos { line: 1, column: 1 }).unwrap());
    AudioLibrary {
        songs: music
            .iter()
            .map(|(name, tracks)| {
                let tracks = tracks
                    .iter()
                    .enumerate()
                    .map(|(c, t)| (c, compile_one(t)))
                    .collect();
                (name.to_string(), Song { tracks })
            })
            .collect(),
        sounds: sounds
            .iter()
            .map(|(n, t)| (n.to_string(), compile_one(t)))
            .collect(),
    }
}

fn vblanks(unit: &mut AudioUnit, lib: &AudioLibrary, n: usize) -> Vec<f32> {
    let mut all = Vec::new();
    for _ in 0..n {
        let mut out = vec![0.0; SAMPLES_PER_VBLANK];
        unit.render_vblank(lib, &mut out);
        all.extend(out);
    }
    all
}

#[test]
fn music_notes_fall_on_their_beats() {
    // t120: a quarter note is 0.5 s = 24000 frames: an eighth note and an eighth rest a beat.
    let lib = library(&[("beat", &["t120 l8 c r c r c r c r"])], &[]);
    let mut unit = AudioUnit::default();
    unit.play_music(&lib, "beat").unwrap();
    let audio = vblanks(&mut unit, &lib, 120);
    let env = amplitude(&audio.chunks(2).map(|f| f64::from(f[0])).collect::<Vec<_>>());
    let onsets: Vec<usize> = (0..env.len())
        .filter(|&i| env[i] > 0.05 && (i == 0 || env[i - 1] <= 0.05))
        .collect();
    assert_eq!(onsets, [0, 500, 1000, 1500], "note onsets, in ms");
}

#[test]
fn an_effect_borrows_a_channel_and_gives_it_back() {
    let lib = library(
        &[("song", &["L c1", "L e1", "L g1"])],
        &[("blip", "t600 o6 c8")],
    );
    let mut unit = AudioUnit::default();
    unit.play_music(&lib, "song").unwrap();
    vblanks(&mut unit, &lib, 2);
    let channel = unit.play_sound(&lib, 0, None).unwrap();
    assert_eq!(channel, 7, "a channel the music does not use");
    assert_eq!(unit.sound_playing(7), Some("blip"));
    let forced = unit.play_sound(&lib, 0, Some(1)).unwrap();
    assert_eq!(forced, 1);
    vblanks(&mut unit, &lib, 30);
    assert_eq!(
        unit.sound_playing(1),
        None,
        "the effect ended and gave channel 1 back"
    );
    assert_eq!(unit.music_playing(), Some("song"));
    unit.stop_all();
    vblanks(&mut unit, &lib, 2);
    assert_eq!(unit.music_playing(), None);
}

#[test]
fn a_song_without_a_loop_point_ends() {
    let lib = library(&[("short", &["t240 c8 d8"])], &[]);
    let mut unit = AudioUnit::default();
    unit.play_music(&lib, "short").unwrap();
    vblanks(&mut unit, &lib, 60);
    assert_eq!(unit.music_playing(), None);
    assert!(matches!(
        unit.play_music(&lib, "nope"),
        Err(SoundError::NoSuchMusic(_))
    ));
}

/// RMS of each of 16 equal parts of `audio`.
fn profile(audio: &[f32]) -> Vec<f64> {
    audio
        .chunks(audio.len() / 16)
        .take(16)
        .map(|part| {
            (part.iter().map(|s| f64::from(*s).powi(2)).sum::<f64>() / part.len() as f64).sqrt()
        })
        .collect()
}

/// The reference tune: four channels of every tone, envelopes, pan, slide, vibrato,
/// arpeggio and a repeat.
pub(crate) const REFERENCE_TUNE: [&str; 4] = [
    "t132 o4 l8 @2 v12 E1,6,9,8 [c e g > c < g e]2 f a > c f c < a g b > d g d < b",
    "t132 o2 l4 @4 v15 c c f g c c f g",
    "t132 o5 l16 @1 v8 p-60 V30,55 r2 e d c d e e e8 d d d8 e g g8",
    "t132 o3 l8 @6 v6 p60 [c r c c]4",
];

#[test]
fn the_reference_tune_keeps_its_loudness_profile() {
    let lib = library(&[("tune", &REFERENCE_TUNE)], &[]);
    let mut unit = AudioUnit::default();
    unit.play_music(&lib, "tune").unwrap();
    let audio = vblanks(&mut unit, &lib, 240);
    let got = profile(&audio);
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/golden/reference_tune.rms"
    );
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        let text: Vec<String> = got.iter().map(|v| format!("{v:.6}")).collect();
        std::fs::create_dir_all(std::path::Path::new(path).parent().unwrap()).unwrap();
        std::fs::write(path, text.join("\n") + "\n").unwrap();
    }
    let expected: Vec<f64> = std::fs::read_to_string(path)
        .expect("tests/golden/reference_tune.rms (UPDATE_GOLDEN=1 writes it)")
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(expected.len(), 16);
    for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
        assert!(
            (g - e).abs() <= 0.02 * e.max(0.01),
            "part {i}: RMS {g:.5}, golden {e:.5}"
        );
    }
    assert!(got.iter().all(|&v| v > 0.01), "never silent: {got:?}");
}

#[test]
fn rendering_is_deterministic() {
    let run = || {
        let lib = library(&[("tune", &REFERENCE_TUNE)], &[]);
        let mut unit = AudioUnit::default();
        unit.play_music(&lib, "tune").unwrap();
        vblanks(&mut unit, &lib, 60)
    };
    assert!(run() == run());
}

#[test]
fn a_songs_pass_is_its_longest_track_once_through() {
    // t120: a quarter note is half a second (24000 samples).
    let song = Song::from_music_file("A t120 c4 d4 [e4]3\nB t120 L c2\n").unwrap();
    assert!(song.loops());
    assert_eq!(song.pass_samples(1e9), Some(5.0 * 24000.0));
    assert_eq!(song.pass_samples(100_000.0), None, "longer than the cap");
    let once = Song::from_music_file("A t60 c1\n").unwrap();
    assert!(!once.loops());
    assert_eq!(once.pass_samples(1e9), Some(4.0 * 48000.0));
    let errors = Song::from_music_file("A c d\nB c k\nC e x\n").unwrap_err();
    let errors: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        errors,
        ["2:5: unknown command `k`", "3:5: unknown command `x`"]
    );
}

#[test]
fn skipping_a_vblank_leaves_the_unit_exactly_as_mixing_it_does() {
    // Every wave, envelopes, vibrato, arpeggio, slide, pan and looping tracks, with a sound
    // effect taking a channel now and then.
    let (mut heard, mut library) = crate::audio::busy::busy_audio();
    let blip = compile("@7 E0,4,0,6 o5 l16 c d e", Pos { line: 1, column: 1 }).unwrap();
    library.sounds.push(("blip".into(), Arc::new(blip)));
    let mut skipped = heard.clone();
    let mut out = vec![0.0f32; SAMPLES_PER_VBLANK];
    for vblank in 0..900 {
        if vblank % 97 == 0 {
            for unit in [&mut heard, &mut skipped] {
                unit.play_sound(&library, 0, Some(3)).unwrap();
            }
        }
        let mixed = heard.render_vblank(&library, &mut out);
        let moved = skipped.skip_vblank(&library);
        assert_eq!(mixed, moved, "cycles at vblank {vblank}");
    }
    assert!(out.iter().any(|&s| s != 0.0), "the unit was sounding");
    assert_eq!(
        postcard::to_stdvec(&heard).unwrap(),
        postcard::to_stdvec(&skipped).unwrap()
    );
}
