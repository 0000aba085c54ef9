//! Kairo's MML (Music Macro Language) dialect, compiled to a command list per track.
//!
//! | Command | Meaning |
//! |---|---|
//! | `c d e f g a b` | a note; `+` or `#` sharp, `-` flat; then an optional length and dots (`c4.`, `g+16`) |
//! | `r` | a rest, with an optional length and dots |
//! | `&` | tie: the next note continues this one without restarting the envelope |
//! | `o0`-`o8`, `>`, `<` | octave (o4 holds middle C), up, down |
//! | `l1`-`l96` | default length (4 = a quarter note) |
//! | `t1`-`t999` | tempo in quarter notes per minute |
//! | `v0`-`v15` | volume |
//! | `@0`-`@8` | tone: pulse 12.5/25/50/75 %, triangle, saw, noise, short noise, wavetable |
//! | `E a,d,s,r` | envelope: attack, decay, release in frames (1/60 s), sustain 0-15 |
//! | `p-100`-`p100` | pan, left to right |
//! | `S n` | pitch slide, semitones per second (`S0` off) |
//! | `V depth,rate` | vibrato: depth in cents, rate in tenths of Hz (`V0,0` off) |
//! | `A x,y` | arpeggio: the note, +x, +y semitones, one per frame (`A0,0` off) |
//! | `W` + 32 hex digits | the wavetable (`@8`), 32 steps of 0-f |
//! | `[` ... `]n` | repeat n times (default 2), nestable |
//! | `L` | loop point: music restarts here when the track ends |
//! | `;` | comment to the end of the line |

use super::voice::{Envelope, SAMPLE_RATE, Wave};

/// Ticks in a quarter note.
pub(crate) const TICKS_PER_QUARTER: u32 = 96;
const WHOLE: u32 = 4 * TICKS_PER_QUARTER;
/// Most times a `[ ]` block repeats.
pub(crate) const MAX_REPEAT: u32 = 255;

/// One compiled command.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Cmd {
    Note { pitch: u8, ticks: u32, tied: bool },
    Rest { ticks: u32 },
    Tempo(f64),
    Volume(f64),
    Tone(Wave),
    Envelope(Envelope),
    Pan(f64),
    Slide(f64),
    Vibrato(f64, f64),
    Arpeggio(Vec<i8>),
    Table([u8; 32]),
    LoopStart,
    LoopEnd { count: u32 },
    LoopPoint,
}

impl Cmd {
    /// Whether the command lets time pass.
    pub(crate) fn takes_time(&self) -> bool {
        matches!(self, Cmd::Note { .. } | Cmd::Rest { .. })
    }
}

/// A position in MML text (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Pos {
    pub line: usize,
    pub column: usize,
}

/// A problem in MML text.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, thiserror::Error)]
#[error("{}:{}: {message}", pos.line, pos.column)]
pub struct MmlError {
    pub(crate) pos: Pos,
    pub message: String,
}

struct Reader<'a> {
    chars: Vec<(char, Pos)>,
    at: usize,
    _text: &'a str,
}

impl Reader<'_> {
    fn new(text: &str, first: Pos) -> Reader<'_> {
        let mut chars = Vec::new();
        let (mut line, mut column) = (first.line, first.column);
        let mut in_comment = false;
        for c in text.chars() {
            if c == '\n' {
                line += 1;
                column = 1;
                in_comment = false;
                continue;
            }
            if c == ';' {
                in_comment = true;
            }
            if !in_comment && !c.is_whitespace() {
                chars.push((c, Pos { line, column }));
            }
            column += 1;
        }
        Reader {
            chars,
            at: 0,
            _text: text,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).map(|(c, _)| *c)
    }

    fn pos(&self) -> Pos {
        self.chars
            .get(self.at)
            .or(self.chars.last())
            .map(|(_, p)| *p)
            .unwrap_or(Pos { line: 1, column: 1 })
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek();
        self.at += 1;
        c
    }

    /// An optional unsigned number.
    fn number(&mut self) -> Option<u32> {
        let mut value: Option<u32> = None;
        while let Some(c) = self.peek().filter(char::is_ascii_digit) {
            self.at += 1;
            value = Some(
                value
                    .unwrap_or(0)
                    .saturating_mul(10)
                    .saturating_add(c as u32 - '0' as u32),
            );
        }
        value
    }

    /// An optional signed number.
    fn signed(&mut self) -> Option<i64> {
        let negative = self.peek() == Some('-');
        if negative || self.peek() == Some('+') {
            self.at += 1;
        }
        self.number().map(|n| {
            if negative {
                -i64::from(n)
            } else {
                i64::from(n)
            }
        })
    }
}

/// Compiles one track of MML (`first` is where `text` starts, for error positions).
pub(crate) fn compile(text: &str, first: Pos) -> Result<Vec<Cmd>, MmlError> {
    let mut r = Reader::new(text, first);
    let mut out = Vec::new();
    let (mut octave, mut length) = (4i32, WHOLE / 4);
    let mut open_repeats: Vec<Pos> = Vec::new();
    let mut tie_next = false;
    while let Some(c) = r.peek() {
        let pos = r.pos();
        let fail = |message: String| MmlError { pos, message };
        r.next();
        match c {
            note @ 'a'..='g' => {
                let base: i32 = match note {
                    'c' => 0,
                    'd' => 2,
                    'e' => 4,
                    'f' => 5,
                    'g' => 7,
                    'a' => 9,
                    _ => 11,
                };
                let mut semitone = base;
                while let Some(accidental) = r.peek() {
                    match accidental {
                        '+' | '#' => semitone += 1,
                        '-' => semitone -= 1,
                        _ => break,
                    }
                    r.next();
                }
                let ticks = note_length(&mut r, length).map_err(fail)?;
                let pitch = (octave + 1) * 12 + semitone;
                if !(0..=127).contains(&pitch) {
                    return Err(MmlError {
                        pos,
                        message: format!("note out of range (octave {octave})"),
                    });
                }
                out.push(Cmd::Note {
                    pitch: pitch as u8,
                    ticks,
                    tied: tie_next,
                });
                tie_next = false;
            }
            'r' => {
                let ticks = note_length(&mut r, length).map_err(fail)?;
                out.push(Cmd::Rest { ticks });
            }
            '&' => {
                if !matches!(out.last(), Some(Cmd::Note { .. })) {
                    return Err(fail("`&` must follow a note".into()));
                }
                tie_next = true;
            }
            'o' => {
                let n = r
                    .number()
                    .ok_or_else(|| fail("`o` needs an octave 0-8".into()))?;
                if n > 8 {
                    return Err(fail(format!("octave {n} is not 0-8")));
                }
                octave = n as i32;
            }
            '>' => octave = (octave + 1).min(8),
            '<' => octave = (octave - 1).max(0),
            'l' => {
                let n = r
                    .number()
                    .ok_or_else(|| fail("`l` needs a length".into()))?;
                length = length_ticks(n).map_err(fail)?;
                let mut dot = length / 2;
                while r.peek() == Some('.') {
                    r.next();
                    length += dot;
                    dot /= 2;
                }
            }
            't' => {
                let n = r
                    .number()
                    .filter(|n| (1..=999).contains(n))
                    .ok_or_else(|| fail("`t` needs a tempo 1-999".into()))?;
                out.push(Cmd::Tempo(f64::from(n)));
            }
            'v' => {
                let n = r
                    .number()
                    .filter(|n| *n <= 15)
                    .ok_or_else(|| fail("`v` needs a volume 0-15".into()))?;
                out.push(Cmd::Volume(f64::from(n) / 15.0));
            }
            '@' => {
                let n = r
                    .number()
                    .ok_or_else(|| fail("`@` needs a tone 0-8".into()))?;
                let wave = match n {
                    0..=3 => Wave::Pulse(n as u8),
                    4 => Wave::Triangle,
                    5 => Wave::Saw,
                    6 => Wave::Noise { short: false },
                    7 => Wave::Noise { short: true },
                    8 => Wave::Table,
                    _ => return Err(fail(format!("tone @{n} is not 0-8"))),
                };
                out.push(Cmd::Tone(wave));
            }
            'E' => {
                let values = list(&mut r, 4).map_err(fail)?;
                let frames = |n: i64| n.max(0) as f64 * SAMPLE_RATE / 60.0;
                if !(0..=15).contains(&values[2]) {
                    return Err(fail("envelope sustain must be 0-15".into()));
                }
                out.push(Cmd::Envelope(Envelope {
                    attack: frames(values[0]),
                    decay: frames(values[1]),
                    sustain: values[2] as f64 / 15.0,
                    release: frames(values[3]),
                }));
            }
            'p' => {
                let n = r
                    .signed()
                    .filter(|n| (-100..=100).contains(n))
                    .ok_or_else(|| fail("`p` needs a pan -100..100".into()))?;
                out.push(Cmd::Pan(n as f64 / 100.0));
            }
            'S' => {
                let n = r
                    .signed()
                    .ok_or_else(|| fail("`S` needs semitones per second".into()))?;
                out.push(Cmd::Slide(n as f64));
            }
            'V' => {
                let values = list(&mut r, 2).map_err(fail)?;
                out.push(Cmd::Vibrato(
                    values[0] as f64 / 100.0,
                    values[1] as f64 / 10.0,
                ));
            }
            'A' => {
                let values = list(&mut r, 2).map_err(fail)?;
                let offsets: Vec<i8> = [0, values[0], values[1]]
                    .iter()
                    .map(|&v| v.clamp(-48, 48) as i8)
                    .collect();
                out.push(Cmd::Arpeggio(if values == [0, 0] {
                    Vec::new()
                } else {
                    offsets
                }));
            }
            'W' => {
                let mut table = [0u8; 32];
                for slot in table.iter_mut() {
                    let digit = r
                        .next()
                        .and_then(|d| d.to_digit(16))
                        .ok_or_else(|| fail("`W` needs 32 hex digits".into()))?;
                    *slot = digit as u8;
                }
                out.push(Cmd::Table(table));
            }
            '[' => {
                open_repeats.push(pos);
                if open_repeats.len() > 8 {
                    return Err(fail("repeats nest deeper than 8".into()));
                }
                out.push(Cmd::LoopStart);
            }
            ']' => {
                if open_repeats.pop().is_none() {
                    return Err(fail("`]` without `[`".into()));
                }
                let start = out.iter().rposition(|c| *c == Cmd::LoopStart).unwrap_or(0);
                if !out[start..].iter().any(Cmd::takes_time) {
                    return Err(fail(
                        "a repeat without notes or rests would never end".into(),
                    ));
                }
                let count = r.number().unwrap_or(2);
                if !(1..=MAX_REPEAT).contains(&count) {
                    return Err(fail(format!("repeat count {count} is not 1-{MAX_REPEAT}")));
                }
                out.push(Cmd::LoopEnd { count });
            }
            'L' => out.push(Cmd::LoopPoint),
            _ => return Err(fail(format!("unknown command `{c}`"))),
        }
    }
    if let Some(&pos) = open_repeats.last() {
        return Err(MmlError {
            pos,
            message: "a `[` is not closed".into(),
        });
    }
    if tie_next {
        return Err(MmlError {
            pos: r.pos(),
            message: "`&` at the end of the track".into(),
        });
    }
    if let Some(point) = out.iter().position(|c| *c == Cmd::LoopPoint)
        && !out[point..].iter().any(Cmd::takes_time)
    {
        return Err(MmlError {
            pos: r.pos(),
            message: "nothing to loop after `L`".into(),
        });
    }
    Ok(out)
}

fn length_ticks(n: u32) -> Result<u32, String> {
    if !(1..=96).contains(&n) {
        return Err(format!("length {n} is not 1-96"));
    }
    Ok(WHOLE / n)
}

/// A note's length: an optional number (else the default) and dots.
fn note_length(r: &mut Reader, default: u32) -> Result<u32, String> {
    let mut ticks = match r.number() {
        Some(n) => length_ticks(n)?,
        None => default,
    };
    let mut dot = ticks / 2;
    while r.peek() == Some('.') {
        r.next();
        ticks += dot;
        dot /= 2;
    }
    Ok(ticks)
}

/// `n` comma-separated signed numbers.
fn list(r: &mut Reader, n: usize) -> Result<Vec<i64>, String> {
    let mut values = Vec::with_capacity(n);
    for i in 0..n {
        if i > 0 {
            if r.peek() != Some(',') {
                return Err(format!("expected {n} numbers separated by commas"));
            }
            r.next();
        }
        values.push(
            r.signed()
                .ok_or(format!("expected {n} numbers separated by commas"))?,
        );
    }
    Ok(values)
}

/// Splits a music file into tracks: lines starting with a track letter `A`-`H` (several lines
/// may continue one track); `#` lines are comments. Returns (channel, text, position) pieces.
/// A track's later lines are joined to it with the newlines and spaces that keep every
/// character at its place in the file, so errors name the right line and column.
pub(crate) fn split_tracks(text: &str) -> Result<Vec<(usize, String, Pos)>, MmlError> {
    // (channel, text, position of the text, line the text has reached)
    let mut tracks: Vec<(usize, String, Pos, usize)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with(';') {
            continue;
        }
        let indent = line[..line.len() - trimmed.len()].chars().count();
        let letter = trimmed.chars().next().unwrap_or(' ');
        let channel = ('A'..='H').position(|l| l == letter).ok_or(MmlError {
            pos: Pos {
                line: i + 1,
                column: indent + 1,
            },
            message: format!("a music line starts with a track letter A-H, not `{letter}`"),
        })?;
        let body = &trimmed[1..];
        let pos = Pos {
            line: i + 1,
            column: indent + 2,
        };
        match tracks.iter_mut().find(|(c, ..)| *c == channel) {
            Some((_, existing, _, reached)) => {
                // Continue the track: down to this line, across to the letter's right.
                existing.extend(std::iter::repeat_n('\n', i + 1 - *reached));
                existing.extend(std::iter::repeat_n(' ', indent + 1));
                existing.push_str(body);
                *reached = i + 1;
            }
            None => tracks.push((channel, body.to_string(), pos, i + 1)),
        }
    }
    Ok(tracks
        .into_iter()
        .map(|(channel, text, pos, _)| (channel, text, pos))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> Vec<Cmd> {
        compile(text, Pos { line: 1, column: 1 }).unwrap_or_else(|e| panic!("{e}"))
    }

    fn err(text: &str) -> String {
        compile(text, Pos { line: 1, column: 1 })
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn notes_lengths_dots_octaves_and_accidentals() {
        assert_eq!(
            ok("o4 c4 d+8. e-16 > c l2 r"),
            vec![
                Cmd::Note {
                    pitch: 60,
                    ticks: 96,
                    tied: false
                },
                Cmd::Note {
                    pitch: 63,
                    ticks: 72,
                    tied: false
                },
                Cmd::Note {
                    pitch: 63,
                    ticks: 24,
                    tied: false
                },
                Cmd::Note {
                    pitch: 72,
                    ticks: 96,
                    tied: false
                },
                Cmd::Rest { ticks: 192 },
            ]
        );
        assert_eq!(
            ok("a4&a8")[1],
            Cmd::Note {
                pitch: 69,
                ticks: 48,
                tied: true
            }
        );
    }

    #[test]
    fn controls_compile_to_commands() {
        let cmds = ok("t150 v15 @1 E2,4,8,10 p-50 S-12 V25,60 A4,7 [c]3 L c");
        assert_eq!(cmds[0], Cmd::Tempo(150.0));
        assert_eq!(cmds[1], Cmd::Volume(1.0));
        assert_eq!(cmds[2], Cmd::Tone(Wave::Pulse(1)));
        assert!(matches!(cmds[3], Cmd::Envelope(e) if e.attack == 1600.0 && e.release == 8000.0));
        assert_eq!(cmds[4], Cmd::Pan(-0.5));
        assert_eq!(cmds[5], Cmd::Slide(-12.0));
        assert_eq!(cmds[6], Cmd::Vibrato(0.25, 6.0));
        assert_eq!(cmds[7], Cmd::Arpeggio(vec![0, 4, 7]));
        let c = Cmd::Note {
            pitch: 60,
            ticks: 96,
            tied: false,
        };
        assert_eq!(
            &cmds[8..],
            &[
                Cmd::LoopStart,
                c.clone(),
                Cmd::LoopEnd { count: 3 },
                Cmd::LoopPoint,
                c
            ]
        );
        assert!(
            matches!(ok("W0123456789abcdef0123456789ABCDEF")[0], Cmd::Table(t) if t[15] == 15 && t[31] == 15)
        );
    }

    #[test]
    fn errors_have_line_and_column() {
        assert_eq!(err("c4 d4 x"), "1:7: unknown command `x`");
        assert_eq!(err("c4\n  o9"), "2:3: octave 9 is not 0-8");
        assert_eq!(err("[c d"), "1:1: a `[` is not closed");
        assert_eq!(err("c ]"), "1:3: `]` without `[`");
        assert_eq!(err("c0"), "1:1: length 0 is not 1-96");
        assert_eq!(err("v16"), "1:1: `v` needs a volume 0-15");
        assert_eq!(err("& c"), "1:1: `&` must follow a note");
        assert_eq!(err("c ; comment x y\nq"), "2:1: unknown command `q`");
        assert_eq!(err("o8 b++++++++++"), "1:4: note out of range (octave 8)");
        assert_eq!(
            err("c [v3]4"),
            "1:6: a repeat without notes or rests would never end"
        );
        assert_eq!(err("c L v3"), "1:6: nothing to loop after `L`");
    }

    #[test]
    fn music_files_split_into_tracks_by_letter() {
        let tracks = split_tracks("# title\nA t120 c d\nB e f\nA g a\n").unwrap();
        assert_eq!(tracks.len(), 2);
        assert_eq!(tracks[0].0, 0);
        assert_eq!(tracks[0].1, " t120 c d\n\n  g a");
        assert_eq!(tracks[1].2, Pos { line: 3, column: 2 });
        // An error on a later line of a track is placed where it is in the file.
        let tracks = split_tracks("A c d\nB e\n  A f k\n").unwrap();
        let (_, text, pos) = &tracks[0];
        assert_eq!(
            compile(text, *pos).unwrap_err().to_string(),
            "3:7: unknown command `k`"
        );
        assert_eq!(
            split_tracks("Z c").unwrap_err().to_string(),
            "1:1: a music line starts with a track letter A-H, not `Z`"
        );
    }
}
