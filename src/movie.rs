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
//! `*N` to repeat it N times. Lines starting with `#` are comments. `save HEX` lines (version
//! 2), concatenated, give the save RAM the movie starts with, so a replay sees the same high
//! scores as the recording did; without them it starts empty. A `start N` line (version 3)
//! marks where a recording made "from here" in the window began: the input before it brings the
//! machine from power-on to that moment, so the movie still replays from power-on anywhere,
//! and the window's playback shows it from vblank N. Files are written atomically (temporary
//! file, then rename).

use std::fmt::Write as _;
use std::path::Path;

use thiserror::Error;

use crate::input::InputFrame;
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
pub const MAX_MOVIE_BYTES: u64 = 64 * 1024 * 1024;

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
            if let Some(at) = line.strip_prefix("start ") {
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
                    format!("expected 1 to {PLAYERS} hex words, found {}", fields.len()),
                ));
            }
            for (player, field) in fields.iter().enumerate() {
                frame.0[player] = u16::from_str_radix(field, 16).map_err(|_| {
                    fail(n, format!("`{}` is not a hex input word", excerpt(field)))
                })?;
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
    fn bad_movies_name_the_line() {
        let err = Movie::parse("kairo-movie 1\n0000\nzz\n", "m.kmv").unwrap_err();
        assert_eq!(err.to_string(), "m.kmv:3: `zz` is not a hex input word");
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
