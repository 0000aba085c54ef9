//! Input movies: the input word of every player for every vblank, in a small versioned text
//! format that diffs well and is easy to write by hand:
//!
//! ```text
//! kairo-movie 1
//! cart Platformer
//! 0000 0000 0000 0000 *120
//! 0002 0000 0000 0000 *15
//! ```
//!
//! After the header, each line holds the four players' words in hex, optionally followed by
//! `*N` to repeat it N times. A word may also be written readably, as the buttons held:
//! their names as `btn` takes them joined by `+` (`right+a`), or `-` for none; a line
//! `right+a *20` holds right and A for player 1 for 20 vblanks. The same steps, joined by
//! commas (`start*1,-*40,right+a*20`), are `kairo headless --press`'s scripted input
//! ([`Movie::from_press`]). Lines starting with `#` are comments. `save HEX` lines (version
//! 2), concatenated, give the save RAM the movie starts with, so a replay sees the same high
//! scores as the recording did; without them it starts empty. A `start N` line (version 3)
//! marks where a recording made "from here" in the window began: the input before it brings the
//! machine from power-on to that moment, so the movie still replays from power-on anywhere,
//! and the window's playback shows it from vblank N. Files are written atomically (temporary
//! file, then rename).

use std::fmt::Write as _;
use std::path::Path;

use thiserror::Error;

use crate::input::{Button, ButtonWord, InputFrame};
use crate::spec::PLAYERS;

/// The newest format version this build reads (and writes for a movie with a `start`).
pub const MOVIE_VERSION: u32 = 3;
/// The version written for a movie without a `start` line, so older builds still read it.
const PLAIN_VERSION: u32 = 2;
/// Save RAM bytes per `save` line.
const SAVE_LINE_BYTES: usize = 64;
const MAGIC: &str = "kairo-movie";
/// Most vblanks a movie may hold (10 hours).
pub const MAX_TICKS: usize = 60 * 60 * 60 * 10;
/// Largest movie file read: room for [`MAX_TICKS`] lines of four words and some comments.
pub(crate) const MAX_MOVIE_BYTES: u64 = 64 * 1024 * 1024;

/// A problem with a movie file.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum MovieError {
    #[error("{file}:{line}: {message}")]
    Parse {
        file: String,
        line: usize,
        message: String,
    },
    #[error("{file}: {message}")]
    Io { file: String, message: String },
}

/// A recorded input sequence.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Movie {
    /// Name of the cart it was recorded on (informational).
    pub cart: String,
    /// One entry per vblank.
    pub ticks: Vec<InputFrame>,
    /// Save RAM at power-on, up to its last non-zero byte.
    pub save: Vec<u8>,
    /// The vblank the recording began at (0: from power-on). Playback in the window runs the
    /// vblanks before it unseen; headless runs ignore it (every vblank replays anyway).
    pub start: usize,
}

impl Movie {
    /// The input of vblank `n`; no buttons once the movie has ended.
    pub fn input(&self, n: usize) -> InputFrame {
        self.ticks.get(n).copied().unwrap_or_default()
    }

    /// Parses movie text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Movie, MovieError> {
        let fail = |line: usize, message: String| MovieError::Parse {
            file: file.into(),
            line,
            message,
        };
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
        let (n, header) = lines.next().ok_or_else(|| fail(1, "empty file".into()))?;
        let version = header
            .strip_prefix(MAGIC)
            .and_then(|v| v.strip_prefix(' '))
            .and_then(|v| v.trim().parse::<u32>().ok())
            .ok_or_else(|| {
                fail(
                    n,
                    format!("not a Kairo movie (expected `{MAGIC} {MOVIE_VERSION}`)"),
                )
            })?;
        if version > MOVIE_VERSION {
            return Err(fail(
                n,
                format!(
                    "made by a newer Kairo: movie version {version}, this build reads {MOVIE_VERSION}"
                ),
            ));
        }
        let mut movie = Movie::default();
        for (n, line) in lines {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(name) = line.strip_prefix("cart ") {
                movie.cart = name.trim().to_string();
                continue;
            }
            if let Some(at) = line.strip_prefix("start ").filter(|at| is_start_marker(at)) {
                movie.start = at
                    .trim()
                    .parse::<usize>()
                    .ok()
                    .filter(|&n| n <= MAX_TICKS)
                    .ok_or_else(|| fail(n, format!("bad start vblank `{}`", excerpt(at.trim()))))?;
                continue;
            }
            if let Some(hex) = line.strip_prefix("save ") {
                let hex = hex.trim();
                let bytes = (hex.len() % 2 == 0 && hex.is_ascii())
                    .then(|| {
                        (0..hex.len())
                            .step_by(2)
                            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).ok())
                            .collect::<Option<Vec<u8>>>()
                    })
                    .flatten()
                    .ok_or_else(|| fail(n, "a `save` line holds pairs of hex digits".into()))?;
                if movie.save.len() + bytes.len() > crate::spec::SAVE_BYTES {
                    return Err(fail(
                        n,
                        format!(
                            "more save RAM than the {} bytes there are",
                            crate::spec::SAVE_BYTES
                        ),
                    ));
                }
                movie.save.extend(bytes);
                continue;
            }
            let (words, repeat) = match line.split_once('*') {
                Some((words, count)) => {
                    let count = count
                        .trim()
                        .parse::<usize>()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| {
                            fail(n, format!("bad repeat count `{}`", excerpt(count.trim())))
                        })?;
                    (words, count)
                }
                None => (line, 1),
            };
            let mut frame = InputFrame::NONE;
            let fields: Vec<&str> = words.split_whitespace().collect();
            if fields.is_empty() || fields.len() > PLAYERS {
                return Err(fail(
                    n,
                    format!(
                        "expected 1 to {PLAYERS} input words (hex like `0012`, or buttons like `right+a`), found {}",
                        fields.len()
                    ),
                ));
            }
            for (player, field) in fields.iter().enumerate() {
                frame.0[player] = input_word(field).map_err(|e| fail(n, e))?;
            }
            // `repeat` can be anything up to usize::MAX: compare without adding.
            if repeat > MAX_TICKS - movie.ticks.len() {
                return Err(fail(n, format!("longer than {MAX_TICKS} vblanks")));
            }
            movie.ticks.extend(std::iter::repeat_n(frame, repeat));
        }
        if movie.start > movie.ticks.len() {
            return Err(MovieError::Parse {
                file: file.into(),
                line: text.lines().count().max(1),
                message: format!(
                    "starts at vblank {} but holds only {} vblanks",
                    movie.start,
                    movie.ticks.len()
                ),
            });
        }
        Ok(movie)
    }

    /// The movie of scripted input: for each player, steps `BUTTONS*N` joined by commas
    /// (`start*1,-*40,right+a*20`), each holding its buttons for N vblanks (1 without
    /// `*N`); `None` for a player with no script. The movie is as long as the longest
    /// script and starts with empty save RAM.
    pub fn from_press(scripts: &[Option<&str>; PLAYERS]) -> Result<Movie, String> {
        let mut movie = Movie::default();
        for (player, script) in scripts.iter().enumerate() {
            let Some(script) = script else { continue };
            let which = match player {
                0 => "--press".to_string(),
                n => format!("--press{}", n + 1),
            };
            let mut vblank = 0usize;
            for (i, step) in script.split(',').enumerate() {
                let step = step.trim();
                let at = |message: String| {
                    format!("{which} step {} (`{}`): {message}", i + 1, excerpt(step))
                };
                let (buttons, count) = match step.split_once('*') {
                    Some((buttons, count)) => {
                        let count = count
                            .trim()
                            .parse::<usize>()
                            .ok()
                            .filter(|&n| n > 0)
                            .ok_or_else(|| {
                                at(format!(
                                    "`{}` is not a count of vblanks (1 or more)",
                                    excerpt(count.trim())
                                ))
                            })?;
                        (buttons.trim(), count)
                    }
                    None => (step, 1),
                };
                let word = parse_buttons(buttons).map_err(at)?;
                if count > MAX_TICKS - vblank {
                    return Err(at(format!("the script is longer than {MAX_TICKS} vblanks")));
                }
                if movie.ticks.len() < vblank + count {
                    movie.ticks.resize(vblank + count, InputFrame::NONE);
                }
                for tick in &mut movie.ticks[vblank..vblank + count] {
                    tick.0[player] = word;
                }
                vblank += count;
            }
        }
        Ok(movie)
    }

    /// Reads a movie file (a regular file of at most [`MAX_MOVIE_BYTES`]).
    pub fn load(path: &Path) -> Result<Movie, MovieError> {
        let file = path.display().to_string();
        let io = |message: String| MovieError::Io {
            file: file.clone(),
            message,
        };
        let bytes =
            crate::fsutil::read_capped(path, MAX_MOVIE_BYTES).map_err(|e| io(e.to_string()))?;
        let text = String::from_utf8(bytes)
            .map_err(|_| io("not UTF-8 text: give a movie written by kairo".into()))?;
        Movie::parse(&text, &file)
    }

    /// The movie as text, runs of equal input folded into `*N`.
    pub fn to_text(&self) -> String {
        let version = if self.start > 0 {
            MOVIE_VERSION
        } else {
            PLAIN_VERSION
        };
        let mut out = format!("{MAGIC} {version}\n");
        if !self.cart.is_empty() {
            let _ = writeln!(out, "cart {}", self.cart);
        }
        if self.start > 0 {
            let _ = writeln!(out, "start {}", self.start);
        }
        for chunk in self.save.chunks(SAVE_LINE_BYTES) {
            let hex: String = chunk.iter().map(|b| format!("{b:02x}")).collect();
            let _ = writeln!(out, "save {hex}");
        }
        let mut i = 0;
        while i < self.ticks.len() {
            let frame = self.ticks[i];
            let run = self.ticks[i..].iter().take_while(|&&f| f == frame).count();
            let words: Vec<String> = frame.0.iter().map(|w| format!("{w:04x}")).collect();
            let _ = write!(out, "{}", words.join(" "));
            if run > 1 {
                let _ = write!(out, " *{run}");
            }
            out.push('\n');
            i += run;
        }
        out
    }

    /// Writes the movie atomically: a temporary file beside `path`, then a rename.
    pub fn save(&self, path: &Path) -> Result<(), MovieError> {
        crate::fsutil::write_atomic(path, self.to_text().as_bytes()).map_err(|e| MovieError::Io {
            file: path.display().to_string(),
            message: format!("cannot write: {e}"),
        })
    }
}

/// At most 32 characters of `text`, for quoting the user's input in a message.
fn excerpt(text: &str) -> String {
    match text.char_indices().nth(32) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

/// Whether the rest of a `start ...` line is the start marker's vblank (one number, maybe
/// signed so that a bad one is reported as such) rather than more input words after player
/// 1's Start button (`start -`, `start *20`).
fn is_start_marker(rest: &str) -> bool {
    let rest = rest.trim();
    let digits = rest.strip_prefix(['-', '+']).unwrap_or(rest);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// One player's input word in a movie line: four hex digits (`0012`, as Kairo writes
/// them), buttons (`right+a`, `-`), or a shorter hex word (`10`) that names no button.
/// A single `a` or `b` is the button, not the hex digit.
fn input_word(field: &str) -> Result<ButtonWord, String> {
    let hex = field.len() <= 4 && field.bytes().all(|b| b.is_ascii_hexdigit());
    if hex && field.len() == 4 {
        return Ok(u16::from_str_radix(field, 16).expect("four hex digits"));
    }
    match parse_buttons(field) {
        Err(_) if hex && !field.is_empty() => {
            Ok(u16::from_str_radix(field, 16).expect("up to four hex digits"))
        }
        Err(e) => Err(format!(
            "`{}` is not an input word (hex like `0012`, or buttons like `right+a`): {e}",
            excerpt(field)
        )),
        word => word,
    }
}

/// Buttons written readably: names as `btn` takes them (any case) joined by `+`, or `-`
/// for none.
pub(crate) fn parse_buttons(text: &str) -> Result<ButtonWord, String> {
    if text == "-" {
        return Ok(0);
    }
    let mut word = 0;
    for name in text.split('+') {
        // `menu1`-`menu5`: a PICO-8 cart's pause-menu item chosen.
        let item = name.trim().to_ascii_lowercase();
        if let Some(n) = item.strip_prefix("menu").and_then(|n| n.parse::<u8>().ok())
            && (1..=5).contains(&n)
        {
            word |= crate::input::menu_choice_bits(n);
            continue;
        }
        let button = Button::from_name(name.trim()).ok_or_else(|| {
            let known: Vec<&str> = Button::ALL.iter().map(|b| b.name()).collect();
            format!(
                "`{}` is not a button (buttons: {}; `menu1`-`menu5` for a PICO-8 cart's pause-menu items; `-` for none; join them with `+`)",
                excerpt(name.trim()),
                known.join(", ")
            )
        })?;
        word |= button.bit();
    }
    Ok(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_with_runs() {
        let mut movie = Movie {
            cart: "Demo".into(),
            ticks: vec![InputFrame::NONE; 100],
            save: (0..=200).map(|i| i as u8).collect(),
            start: 0,
        };
        movie.ticks[50] = InputFrame([2, 0, 0x800, 1]);
        let text = movie.to_text();
        assert!(text.contains("*50") && text.contains("*49"), "{text}");
        assert_eq!(text.matches("\nsave ").count(), 4, "{text}");
        assert_eq!(Movie::parse(&text, "m").unwrap(), movie);
        assert!(text.starts_with("kairo-movie 2\n"), "{text}");
        // A recording made from the middle of a game says where it began (version 3).
        movie.start = 60;
        let text = movie.to_text();
        assert!(
            text.starts_with("kairo-movie 3\ncart Demo\nstart 60\n"),
            "{text}"
        );
        assert_eq!(Movie::parse(&text, "m").unwrap(), movie);
    }

    #[test]
    fn a_start_past_the_end_or_unreadable_is_refused() {
        let err = Movie::parse("kairo-movie 3\nstart 5\n0000 *4\n", "m").unwrap_err();
        assert_eq!(
            err.to_string(),
            "m:3: starts at vblank 5 but holds only 4 vblanks"
        );
        let err = Movie::parse("kairo-movie 3\nstart -1\n", "m").unwrap_err();
        assert_eq!(err.to_string(), "m:2: bad start vblank `-1`");
        assert!(Movie::parse(&format!("kairo-movie 3\nstart {}\n", usize::MAX), "m").is_err());
    }

    #[test]
    fn movie_lines_may_name_the_buttons() {
        let text = "kairo-movie 3\nstart 1\nright+a *2\n- start\n10\nstart *1\n";
        let movie = Movie::parse(text, "m").unwrap();
        let right_a = Button::Right.bit() | Button::A.bit();
        assert_eq!(movie.start, 1);
        let words: Vec<[u16; PLAYERS]> = movie.ticks.iter().map(|t| t.0).collect();
        assert_eq!(
            words,
            [
                [right_a, 0, 0, 0],
                [right_a, 0, 0, 0],
                [0, Button::Start.bit(), 0, 0],
                [0x10, 0, 0, 0],
                [Button::Start.bit(), 0, 0, 0],
            ]
        );
        // Names are case-insensitive; a space inside a word splits it into two fields.
        assert!(Movie::parse("kairo-movie 1\nRIGHT+B\n", "m").is_ok());
        assert!(Movie::parse("kairo-movie 1\nright + b\n", "m").is_err());
    }

    #[test]
    fn press_scripts_become_one_movie() {
        let movie =
            Movie::from_press(&[Some("start*1,-*2,right+a*2"), None, Some("b*4"), None]).unwrap();
        let p1: Vec<u16> = movie.ticks.iter().map(|t| t.0[0]).collect();
        let p3: Vec<u16> = movie.ticks.iter().map(|t| t.0[2]).collect();
        let right_a = Button::Right.bit() | Button::A.bit();
        assert_eq!(p1, [Button::Start.bit(), 0, 0, right_a, right_a]);
        assert_eq!(
            p3,
            [Button::B.bit(); 4]
                .iter()
                .copied()
                .chain([0])
                .collect::<Vec<_>>()
        );
        assert!(movie.save.is_empty());
        let err = Movie::from_press(&[None, Some("jump*3"), None, None]).unwrap_err();
        assert!(
            err.starts_with("--press2 step 1 (`jump*3`): `jump` is not a button"),
            "{err}"
        );
        let err = Movie::from_press(&[Some("a*0"), None, None, None]).unwrap_err();
        assert!(err.contains("`0` is not a count of vblanks"), "{err}");
        let err = Movie::from_press(&[Some("a*x"), None, None, None]).unwrap_err();
        assert!(err.contains("`x` is not a count"), "{err}");
        let huge = format!("a*{MAX_TICKS},a*1");
        assert!(Movie::from_press(&[Some(&huge), None, None, None]).is_err());
    }

    #[test]
    fn bad_movies_name_the_line() {
        let err = Movie::parse("kairo-movie 1\n0000\nzz\n", "m.kmv").unwrap_err();
        assert_eq!(
            err.to_string(),
            "m.kmv:3: `zz` is not an input word (hex like `0012`, or buttons like `right+a`): \
             `zz` is not a button (buttons: left, right, up, down, a, b, x, y, l, r, start, \
             select; `menu1`-`menu5` for a PICO-8 cart's pause-menu items; `-` for none; join \
             them with `+`)"
        );
        let err = Movie::parse("kairo-movie 9\n", "m").unwrap_err();
        assert!(err.to_string().contains("newer Kairo"));
        assert!(Movie::parse("hello\n", "m").is_err());
        assert!(Movie::parse("kairo-movie 1\n0 *99999999999\n", "m").is_err());
        assert!(Movie::parse("kairo-movie 1\n0 0 0 0 0\n", "m").is_err());
        assert!(Movie::parse("kairo-movie 1\n0 *0\n", "m").is_err());
        assert!(Movie::parse("kairo-movie1\n", "m").is_err());
        let err = Movie::parse("kairo-movie 2\nsave 0g\n", "m").unwrap_err();
        assert_eq!(
            err.to_string(),
            "m:2: a `save` line holds pairs of hex digits"
        );
        let big = format!("kairo-movie 2\n{}", "save 00\n".repeat(4097));
        assert!(
            Movie::parse(&big, "m")
                .unwrap_err()
                .to_string()
                .contains("4096 bytes")
        );
        // Version 1 movies (no save RAM) still read.
        assert!(
            Movie::parse("kairo-movie 1\n0000\n", "m")
                .unwrap()
                .save
                .is_empty()
        );
    }

    #[test]
    fn repeat_counts_near_usize_max_are_refused_without_overflow() {
        let text = format!("kairo-movie 1\n0 *5\n0 *{}\n", usize::MAX);
        let err = Movie::parse(&text, "m").unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("m:3: longer than {MAX_TICKS} vblanks")
        );
        let text = format!("kairo-movie 1\n0 *{MAX_TICKS}\n0\n");
        assert!(Movie::parse(&text, "m").is_err());
    }
}
