//! The chip measured against PICO-8's documented rules: note frequencies (A2 = key 33 =
//! 440 Hz), note length = speed x 183 samples at 22,050 Hz, each effect's shape, music
//! flags and pattern lengths, sfx instruments, channel choice.

use super::player::{SFX, SFX_BYTES};
use super::wave::key_to_freq;
use super::*;

const RATE: f64 = 22_050.0;

/// Memory with sfx `n` set: filters byte, speed, loop, and notes (key, wave, volume,
/// effect); a wave of 8 and up is sfx instrument `wave - 8`.
fn set_sfx(ram: &mut [u8], n: usize, head: [u8; 4], notes: &[(u8, u8, u8, u8)]) {
    let at = SFX + n * SFX_BYTES;
    ram[at + 64..at + 68].copy_from_slice(&head);
    for (i, &(key, wave, volume, effect)) in notes.iter().enumerate() {
        let word = u16::from(key)
            | u16::from(wave & 7) << 6
            | u16::from(volume) << 9
            | u16::from(effect) << 12
            | u16::from(wave >> 3) << 15;
        ram[at + i * 2..at + i * 2 + 2].copy_from_slice(&word.to_le_bytes());
    }
}

fn ram() -> Vec<u8> {
    let mut ram = vec![0u8; 0x10000];
    for p in 0..64 {
        ram[0x3100 + p * 4..0x3104 + p * 4].copy_from_slice(&[0x41, 0x42, 0x43, 0x44]);
    }
    ram
}

/// Plays sfx 0 alone and returns `n` chip samples.
fn play(ram: &[u8], n: usize) -> Vec<f64> {
    let mut chip = SoundChip::default();
    chip.sfx(ram, 0, 0, 0, 0);
    chip.chip_samples(ram, n)
}

/// Rising zero crossings (interpolated) of `s`.
fn rises(s: &[f64]) -> Vec<f64> {
    (1..s.len())
        .filter(|&i| s[i - 1] < 0.0 && s[i] >= 0.0)
        .map(|i| (i - 1) as f64 + s[i - 1] / (s[i - 1] - s[i]))
        .collect()
}

/// The frequency of `s` from its first to its last rising crossing.
fn frequency(s: &[f64]) -> f64 {
    let r = rises(s);
    assert!(r.len() > 2, "too few cycles to measure");
    (r.len() - 1) as f64 * RATE / (r[r.len() - 1] - r[0])
}

fn close(measured: f64, expected: f64, tolerance: f64) -> bool {
    (measured / expected - 1.0).abs() < tolerance
}

#[test]
fn notes_sound_at_equal_tempered_pitches_from_a2_at_440_hz() {
    for key in [0u8, 12, 24, 33, 45, 63] {
        for wave in [0u8, 2, 3] {
            let mut ram = ram();
            set_sfx(&mut ram, 0, [0, 64, 0, 0], &[(key, wave, 7, 0)]);
            let f = frequency(&play(&ram, 64 * 183));
            assert!(
                close(f, key_to_freq(f64::from(key)), 0.002),
                "key {key} wave {wave}: {f} Hz"
            );
        }
    }
    assert!(close(key_to_freq(33.0), 440.0, 1e-12));
}

#[test]
fn a_note_lasts_speed_times_183_samples_and_the_sfx_ends_after_32() {
    for speed in [1u8, 7, 16, 255] {
        let mut ram = ram();
        // On, off, on...: the first silent sample is where note 1 starts.
        let notes: Vec<_> = (0..32)
            .map(|i| (33, 3, if i % 2 == 0 { 7 } else { 0 }, 0))
            .collect();
        set_sfx(&mut ram, 0, [0, speed, 0, 0], &notes);
        let samples = play(&ram, 3 * 183 * usize::from(speed));
        let first_silent = samples.iter().position(|&s| s == 0.0).unwrap();
        assert_eq!(first_silent, 183 * usize::from(speed), "speed {speed}");
        let next_sound = samples[first_silent..]
            .iter()
            .position(|&s| s != 0.0)
            .unwrap();
        assert_eq!(next_sound, 183 * usize::from(speed));
    }
    let mut ram = ram();
    set_sfx(&mut ram, 0, [0, 2, 0, 0], &[(33, 3, 7, 0); 32]);
    let mut chip = SoundChip::default();
    chip.sfx(&ram, 0, 0, 0, 0);
    let samples = chip.chip_samples(&ram, 32 * 2 * 183 + 10);
    assert!(samples[32 * 2 * 183 - 1] != 0.0);
    assert_eq!(samples[32 * 2 * 183], 0.0);
    assert_eq!(chip.stat(16), Some(-1.0));
}

#[test]
fn loops_go_round_and_a_length_alone_stops_early() {
    // Loop notes 2-4: after note 4 comes note 2 again, for ever.
    let mut ram = ram();
    set_sfx(&mut ram, 0, [0, 1, 2, 4], &[(33, 3, 7, 0); 32]);
    let mut chip = SoundChip::default();
    chip.sfx(&ram, 0, 0, 0, 0);
    let mut notes = Vec::new();
    for _ in 0..8 {
        notes.push(chip.stat(20).unwrap());
        chip.chip_samples(&ram, 183);
    }
    assert_eq!(notes, [0.0, 1.0, 2.0, 3.0, 2.0, 3.0, 2.0, 3.0]);
    // sfx(-2) lets it run on from note 2 to note 31 and end.
    assert_eq!(chip.stat(20), Some(2.0));
    chip.sfx(&ram, -2, 0, 0, 0);
    chip.chip_samples(&ram, 183 * 29);
    assert_eq!(chip.stat(20), Some(31.0));
    chip.chip_samples(&ram, 183);
    assert_eq!(chip.stat(16), Some(-1.0));
    // Start 5, end 0: five notes long.
    set_sfx(&mut ram, 0, [0, 1, 5, 0], &[(33, 3, 7, 0); 32]);
    let samples = play(&ram, 183 * 6);
    assert_eq!(samples.iter().position(|&s| s == 0.0), Some(5 * 183));
    // sfx(n, c, offset, length): notes 10-12.
    let mut chip = SoundChip::default();
    set_sfx(&mut ram, 0, [0, 1, 0, 0], &[(33, 3, 7, 0); 32]);
    chip.sfx(&ram, 0, 2, 10, 3);
    assert_eq!((chip.stat(18), chip.stat(22)), (Some(0.0), Some(10.0)));
    let samples = chip.chip_samples(&ram, 183 * 4);
    assert_eq!(samples.iter().position(|&s| s == 0.0), Some(3 * 183));
}

/// The frequency in each of `windows` equal parts of `s`.
fn frequencies(s: &[f64], windows: usize) -> Vec<f64> {
    s.chunks(s.len() / windows).map(frequency).collect()
}

#[test]
fn slide_goes_from_the_previous_note_to_this_one_in_a_straight_line() {
    let mut ram = ram();
    set_sfx(&mut ram, 0, [0, 64, 0, 0], &[(24, 0, 7, 0), (48, 0, 7, 1)]);
    let samples = play(&ram, 2 * 64 * 183);
    let note = 64 * 183;
    let (from, to) = (key_to_freq(24.0), key_to_freq(48.0));
    for (i, f) in frequencies(&samples[note..], 8).into_iter().enumerate() {
        let expected = from + (to - from) * (i as f64 + 0.5) / 8.0;
        assert!(
            close(f, expected, 0.02),
            "window {i}: {f} Hz, {expected} expected"
        );
    }
}

#[test]
fn drop_falls_linearly_to_nothing() {
    let mut ram = ram();
    set_sfx(&mut ram, 0, [0, 128, 0, 0], &[(57, 0, 7, 3)]);
    let samples = play(&ram, 128 * 183);
    let top = key_to_freq(57.0);
    for (i, f) in frequencies(&samples, 8).into_iter().take(6).enumerate() {
        let expected = top * (1.0 - (i as f64 + 0.5) / 8.0);
        assert!(
            close(f, expected, 0.03),
            "window {i}: {f} Hz, {expected} expected"
        );
    }
}

#[test]
fn fades_scale_the_volume_by_the_place_in_the_note() {
    for (effect, shape) in [(4u8, 1.0), (5, -1.0)] {
        let mut ram = ram();
        set_sfx(&mut ram, 0, [0, 10, 0, 0], &[(33, 3, 7, effect)]);
        let samples = play(&ram, 1830);
        for i in [1, 300, 915, 1500, 1829] {
            let p = i as f64 / 1830.0;
            let volume = if shape > 0.0 { p } else { 1.0 - p };
            // A square wave is +-0.25 at volume 7; the chip mixes at half.
            assert!(
                (samples[i].abs() - 0.25 * volume * 0.5).abs() < 1e-12,
                "fx {effect} at {i}"
            );
        }
    }
    // Volume 3 of 7 is 3/7 of the amplitude.
    let mut ram = ram();
    set_sfx(&mut ram, 0, [0, 10, 0, 0], &[(33, 3, 3, 0)]);
    assert!((play(&ram, 10)[5].abs() - 0.25 * 3.0 / 7.0 * 0.5).abs() < 1e-12);
}

#[test]
fn arpeggios_step_through_their_group_of_four_every_4_or_8_ticks() {
    let keys = [24u8, 28, 31, 36];
    // (effect, speed, ticks a step): halved at speeds up to 8.
    for (effect, speed, ticks) in [(6u8, 32u8, 4usize), (7, 32, 8), (6, 8, 2), (7, 8, 4)] {
        let mut ram = ram();
        let notes: Vec<_> = keys.iter().map(|&k| (k, 3, 7, effect)).collect();
        set_sfx(&mut ram, 0, [0, speed, 0, 0], &notes);
        let step = ticks * 183;
        let samples = play(&ram, step * 8);
        for (i, chunk) in samples.chunks(step).enumerate() {
            let expected = key_to_freq(f64::from(keys[i % 4]));
            let f = frequency(chunk);
            assert!(
                close(f, expected, 0.03),
                "fx {effect} speed {speed} step {i}: {f} Hz, {expected} expected"
            );
        }
    }
}

#[test]
fn vibrato_swings_a_quarter_semitone_each_way_at_7_5_hz() {
    let mut ram = ram();
    set_sfx(&mut ram, 0, [0, 255, 0, 0], &[(45, 0, 7, 2)]);
    let samples = play(&ram, 22_050);
    // 150 windows of 147 samples: 20 a vibrato cycle.
    let f = frequencies(&samples, 150);
    let base = key_to_freq(45.0);
    let (lo, hi) = f
        .iter()
        .fold((f64::MAX, 0.0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    let quarter = 2f64.powf(0.25 / 12.0) - 1.0;
    assert!(
        hi / base - 1.0 > quarter * 0.6 && hi / base - 1.0 < quarter * 1.4,
        "{hi}"
    );
    assert!(
        1.0 - lo / base > quarter * 0.6 && 1.0 - lo / base < quarter * 1.4,
        "{lo}"
    );
    // 7.5 cycles in a second: the measured pitch crosses the note 15 times going up or down.
    let crossings = f
        .windows(2)
        .filter(|w| (w[0] - base).signum() != (w[1] - base).signum())
        .count();
    assert!((14..=16).contains(&crossings), "{crossings} crossings");
}

#[test]
fn an_sfx_instrument_plays_its_notes_transposed_from_c2_and_its_volume_multiplied() {
    let mut ram = ram();
    // sfx 1: the instrument, a square at C2, looping.
    set_sfx(&mut ram, 1, [0, 4, 0, 8], &[(24, 3, 7, 0); 32]);
    // sfx 0: C3 (key 36) through instrument 1 at volume 3.
    set_sfx(&mut ram, 0, [0, 64, 0, 0], &[(36, 8 + 1, 3, 0)]);
    let samples = play(&ram, 64 * 183);
    let f = frequency(&samples);
    assert!(close(f, key_to_freq(36.0), 0.002), "{f} Hz");
    let peak = samples.iter().fold(0.0f64, |m, s| m.max(s.abs()));
    assert!((peak - 0.25 * 3.0 / 7.0 * 0.5).abs() < 1e-12, "{peak}");
}

#[test]
fn music_follows_its_flags_and_each_pattern_lasts_its_left_most_non_looping_sfx() {
    let mut ram = ram();
    set_sfx(&mut ram, 0, [0, 1, 0, 0], &[(33, 3, 7, 0); 32]);
    // sfx 1 loops; sfx 2 is 8 notes long at speed 2.
    set_sfx(&mut ram, 1, [0, 1, 0, 4], &[(40, 3, 7, 0); 32]);
    set_sfx(&mut ram, 2, [0, 2, 8, 0], &[(45, 3, 7, 0); 32]);
    // 0: loop start; 1; 2: loop back; 3 never; 5: looping ch0, short ch1, then stop.
    ram[0x3100..0x3104].copy_from_slice(&[0x80, 0x41, 0x42, 0x43]);
    ram[0x3104..0x3108].copy_from_slice(&[0x00, 0x41, 0x42, 0x43]);
    ram[0x3108..0x310C].copy_from_slice(&[0x00, 0x81, 0x42, 0x43]);
    ram[0x3114..0x3118].copy_from_slice(&[0x01, 0x02, 0xC2, 0x43]);
    let mut chip = SoundChip::default();
    chip.music(&ram, 0, 0, 0);
    let mut patterns = Vec::new();
    for _ in 0..5 {
        patterns.push(chip.stat(24).unwrap());
        chip.chip_samples(&ram, 32 * 183);
    }
    assert_eq!(patterns, [0.0, 1.0, 2.0, 0.0, 1.0]);
    // Patterns started: 0, 1, 2, 0, 1 and now 2.
    assert_eq!(chip.stat(25), Some(6.0));
    chip.music(&ram, 5, 0, 0);
    assert_eq!((chip.stat(24), chip.stat(57)), (Some(5.0), Some(1.0)));
    chip.chip_samples(&ram, 8 * 2 * 183 - 1);
    assert_eq!(chip.stat(24), Some(5.0));
    assert_eq!(chip.stat(26), Some(15.0));
    chip.chip_samples(&ram, 1);
    assert_eq!((chip.stat(24), chip.stat(57)), (Some(-1.0), Some(0.0)));
}

#[test]
fn music_fades_in_and_out_over_the_milliseconds_given() {
    let mut ram = ram();
    set_sfx(&mut ram, 0, [0, 32, 0, 1], &[(33, 3, 7, 0); 32]);
    ram[0x3100..0x3104].copy_from_slice(&[0x00, 0x41, 0x42, 0x43]);
    let mut chip = SoundChip::default();
    chip.music(&ram, 0, 1000, 0);
    let samples = chip.chip_samples(&ram, 22_050);
    let level = |at: usize| {
        samples[at..at + 100]
            .iter()
            .fold(0.0f64, |m, s| m.max(s.abs()))
    };
    assert!(
        (level(11_000) - 0.125 * 0.5).abs() < 0.002,
        "{}",
        level(11_000)
    );
    assert!((level(21_900) - 0.125).abs() < 0.002);
    chip.music(&ram, -1, 500, 0);
    chip.chip_samples(&ram, 11_000);
    assert_eq!(chip.stat(57), Some(1.0));
    chip.chip_samples(&ram, 30);
    assert_eq!(chip.stat(57), Some(0.0));
}

#[test]
fn sound_effects_take_a_silent_channel_outside_the_music_mask() {
    let mut ram = ram();
    for n in 0..4 {
        set_sfx(&mut ram, n, [0, 16, 0, 0], &[(33, 3, 7, 0); 32]);
    }
    let mut chip = SoundChip::default();
    chip.sfx(&ram, 0, -1, 0, 0);
    chip.sfx(&ram, 1, -1, 0, 0);
    chip.sfx(&ram, 0, -1, 0, 0);
    let playing: Vec<_> = (16..20).map(|n| chip.stat(n).unwrap()).collect();
    assert_eq!(playing, [0.0, 1.0, -1.0, -1.0]);
    // Channel 2 kept for music: the next goes to 3.
    ram[0x3100..0x3104].copy_from_slice(&[0x41, 0x42, 0x03, 0x44]);
    chip.music(&ram, 0, 0, 0b0100);
    chip.sfx(&ram, 2, -1, 0, 0);
    assert_eq!(chip.stat(19), Some(2.0));
    assert_eq!(chip.stat(18), Some(3.0));
    // sfx(n, -2) stops n everywhere; sfx(-1) every sound effect, not the music.
    chip.sfx(&ram, 1, -2, 0, 0);
    assert_eq!(chip.stat(17), Some(-1.0));
    chip.sfx(&ram, -1, -1, 0, 0);
    assert_eq!(chip.stat(16), Some(-1.0));
    assert_eq!(chip.stat(18), Some(3.0));
}

#[test]
fn the_mix_at_48_khz_keeps_the_pitch_and_a_replay_nobody_hears_keeps_the_state() {
    let mut ram = ram();
    set_sfx(&mut ram, 0, [0, 255, 0, 0], &[(33, 3, 7, 0); 32]);
    let (mut heard, mut unheard) = (SoundChip::default(), SoundChip::default());
    heard.sfx(&ram, 0, 0, 0, 0);
    unheard.sfx(&ram, 0, 0, 0, 0);
    let mut left = Vec::new();
    for _ in 0..60 {
        let mut out = vec![0.0f32; crate::spec::SAMPLES_PER_VBLANK];
        let cycles = heard.render_vblank(&ram, Some(&mut out));
        assert_eq!(cycles, crate::spec::cost::PICO8_SOUND_CHANNEL);
        assert_eq!(unheard.render_vblank(&ram, None), cycles);
        left.extend(out.chunks(2).map(|f| f64::from(f[0])));
    }
    assert_eq!(heard, unheard);
    let r = rises(&left);
    let f = (r.len() - 1) as f64 * 48_000.0 / (r[r.len() - 1] - r[0]);
    assert!(close(f, 440.0, 0.002), "{f} Hz");
}

#[test]
fn switches_change_the_sound_detune_adds_a_voice_and_reverb_an_echo() {
    let plain = {
        let mut ram = ram();
        set_sfx(&mut ram, 0, [0, 8, 0, 0], &[(33, 0, 7, 0); 32]);
        play(&ram, 4000)
    };
    for byte in [2u8, 4, 8, 16, 24, 48, 72, 144] {
        let mut ram = ram();
        set_sfx(&mut ram, 0, [byte, 8, 0, 0], &[(33, 0, 7, 0); 32]);
        let switched = play(&ram, 4000);
        let differs = plain
            .iter()
            .zip(&switched)
            .any(|(a, b)| (a - b).abs() > 1e-6);
        // NOIZ alone only changes waveform 6.
        assert_eq!(differs, byte != 2, "switch byte {byte}");
    }
}
