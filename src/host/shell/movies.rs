//! Movies in the window: recording the game's input from power-on or from the moment the
//! player chooses, stopping (the movie is written to `<data folder>/movies/<cart>/`), and
//! playing a movie back from the pause menu. A recording is the session's history (every
//! vblank's input since power-on, already cut back by rewind and replaced by a loaded state),
//! so a movie recorded "from here" still replays from power-on headless; its `start` line
//! says where the window's playback begins showing it.

use std::path::{Path, PathBuf};

use super::{OpenCart, Screen, Shell};
use crate::console::Console;
use crate::host::ui::{Menu, UiAction};
use crate::movie::{MAX_TICKS, Movie};
use crate::saveram::SaveRam;
use crate::saving::slots;
use crate::session::Session;

/// Movies listed in the menu (the newest first).
const LISTED: usize = 12;

/// What the session does with movies.
#[derive(Debug, Default)]
pub(super) enum MovieMode {
    #[default]
    Off,
    /// Recording into `folder` since vblank `start` of the history.
    Recording { start: usize, folder: PathBuf },
    /// Playing `movie` back: the game's input is the movie's, the player's is ignored (except
    /// pause, rewind, fast-forward and debug stepping); save RAM is not stored meanwhile.
    Playing { movie: Movie, path: PathBuf },
}

/// The folder of `console`'s cart's movies in `data_dir`.
pub fn folder(data_dir: &Path, console: &Console) -> PathBuf {
    data_dir
        .join("movies")
        .join(slots::cart_key(console.cart()))
}

/// The movies in `folder`, the newest first (names are times, so by name).
pub fn list(folder: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut movies: Vec<PathBuf> = entries
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "kmv") && p.is_file())
        .collect();
    movies.sort_by_cached_key(|p| std::cmp::Reverse(order_key(p)));
    movies
}

/// Sorts `stamp.kmv` before `stamp-2.kmv`, `stamp-2` before `stamp-10`.
fn order_key(path: &Path) -> (String, u64) {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    match stem.rsplit_once('-') {
        Some((stamp, n)) if stamp.len() == STAMP_LEN => {
            (stamp.to_string(), n.parse().unwrap_or(u64::MAX))
        }
        _ => (stem.into_owned(), 1),
    }
}

/// Characters in a [`utc_stamp`].
const STAMP_LEN: usize = "YYYY-MM-DD_HH-MM-SS".len();

/// A free file name in `folder` for a movie recorded at `unix_seconds` (UTC):
/// `YYYY-MM-DD_HH-MM-SS.kmv`, with `-2`, `-3`... when taken.
fn new_path(folder: &Path, unix_seconds: u64) -> PathBuf {
    let stamp = utc_stamp(unix_seconds);
    std::iter::once(folder.join(format!("{stamp}.kmv")))
        .chain((2..).map(|n| folder.join(format!("{stamp}-{n}.kmv"))))
        .find(|p| !p.exists())
        .expect("a free file name")
}

/// Writes `movie` into `folder` under a new name (the time now); where it went.
pub(super) fn save_new(folder: &Path, movie: &Movie) -> Result<PathBuf, String> {
    std::fs::create_dir_all(folder)
        .map_err(|e| format!("cannot make {}: {e}", folder.display()))?;
    let path = new_path(folder, slots::now_seconds());
    movie.save(&path).map_err(|e| e.to_string())?;
    Ok(path)
}

/// `YYYY-MM-DD_HH-MM-SS` for a time in seconds since 1970 (UTC; the proleptic Gregorian
/// calendar, by counting days in 400-year eras).
fn utc_stamp(unix_seconds: u64) -> String {
    let (days, secs) = (unix_seconds / 86_400, unix_seconds % 86_400);
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}_{:02}-{:02}-{:02}",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

/// `m:ss` for a number of vblanks.
fn clock(vblanks: usize) -> String {
    let seconds = vblanks / 60;
    format!("{}:{:02}", seconds / 60, seconds % 60)
}

impl OpenCart {
    /// Writes the recording, if one runs, and stops it: `Ok(Some(path))` where it went,
    /// `Ok(None)` when nothing was recording or nothing was recorded.
    pub(super) fn finish_recording(&mut self) -> Result<Option<PathBuf>, String> {
        let MovieMode::Recording { start, folder } = std::mem::take(&mut self.movie) else {
            return Ok(None);
        };
        let Some(game) = &self.game else {
            return Ok(None);
        };
        let history = game.history();
        let start = start.min(history.ticks.len());
        if start == history.ticks.len() {
            return Ok(None);
        }
        let movie = Movie {
            start,
            ..history.clone()
        };
        save_new(&folder, &movie).map(Some)
    }

    /// The badge the window shows while recording or playing back, if either: short, so
    /// it hides little of a cart's score line.
    pub(super) fn movie_badge(&self) -> Option<&'static str> {
        match &self.movie {
            MovieMode::Off => None,
            MovieMode::Recording { .. } => Some("REC"),
            MovieMode::Playing { .. } => Some("PLAY"),
        }
    }

    /// How far the recording or playback has gone, for the Movies screen's title.
    fn movie_clock(&self) -> Option<String> {
        let at = self.vblanks();
        match &self.movie {
            MovieMode::Off => None,
            MovieMode::Recording { start, .. } => {
                Some(format!("REC {}", clock(at.saturating_sub(*start))))
            }
            MovieMode::Playing { movie, .. } => Some(format!(
                "PLAY {}/{}",
                clock(at.saturating_sub(movie.start)),
                clock(movie.ticks.len() - movie.start)
            )),
        }
    }

    pub(super) fn is_playing_back(&self) -> bool {
        matches!(self.movie, MovieMode::Playing { .. })
    }
}

impl MovieMode {
    /// The input of vblank `at` while a movie plays: `None` when it has ended (or none
    /// plays).
    pub(super) fn input_at(&self, at: usize) -> Option<crate::input::InputFrame> {
        match self {
            MovieMode::Playing { movie, .. } => movie.ticks.get(at).copied(),
            _ => None,
        }
    }

    /// The history was cut back to `vblanks` (a state loaded): a recording that began
    /// later begins there now.
    pub(super) fn went_back_to(&mut self, vblanks: usize) {
        if let MovieMode::Recording { start, .. } = self {
            *start = (*start).min(vblanks);
        }
    }

    /// Whether a recording holding `vblanks` has reached the longest movie there can be.
    pub(super) fn full(&self, vblanks: usize) -> bool {
        matches!(self, MovieMode::Recording { .. }) && vblanks >= MAX_TICKS
    }
}

impl Shell {
    fn playing_back(&self) -> bool {
        self.session.as_ref().is_some_and(OpenCart::is_playing_back)
    }

    fn recording(&self) -> bool {
        self.session
            .as_ref()
            .is_some_and(|s| matches!(s.movie, MovieMode::Recording { .. }))
    }

    /// The folder of the running cart's movies, if there is a data folder.
    pub(super) fn movie_folder(&self) -> Option<PathBuf> {
        let console = self.console()?;
        Some(folder(self.saving.data_dir.as_ref()?, console))
    }

    /// The pause menu's Movies screen: record or stop, and the movies to play back.
    pub(super) fn show_movies(&mut self) {
        let mut items = Vec::new();
        if self.recording() {
            items.push(("Stop recording".to_string(), UiAction::StopRecording));
        } else if self.playing_back() {
            items.push(("Stop playback".to_string(), UiAction::StopPlayback));
        } else {
            items.push(("Record from power-on".to_string(), UiAction::Record(true)));
            items.push(("Record from here".to_string(), UiAction::Record(false)));
        }
        let movies = self.movie_folder().map(|f| list(&f)).unwrap_or_default();
        for path in movies.into_iter().take(LISTED) {
            let name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            items.push((format!("Play {name}"), UiAction::PlayMovie(path)));
        }
        let title = match self.session.as_ref().and_then(OpenCart::movie_clock) {
            Some(clock) => format!("MOVIES  {clock}"),
            None => "MOVIES".into(),
        };
        self.screen = Screen::Movies(Menu::new(title, items));
    }

    /// Starts recording, from power-on (the cart is reset first) or from this moment.
    pub fn record(&mut self, from_power_on: bool) {
        if self.refuse_during_netplay("Movies") {
            return;
        }
        if self.recording() || self.playing_back() {
            self.toast("Stop the movie first".into());
            return;
        }
        let Some(folder) = self.movie_folder() else {
            self.toast("No data folder: movies cannot be kept".into());
            return;
        };
        if self.console().is_none_or(|c| c.fault().is_some()) {
            return;
        }
        if from_power_on {
            self.perform(UiAction::Reset);
            if !matches!(self.screen, Screen::Playing) {
                return;
            }
        }
        let Some(session) = self.session.as_mut() else {
            return;
        };
        let start = session.vblanks();
        session.movie = MovieMode::Recording { start, folder };
        self.screen = Screen::Playing;
        self.toast(match from_power_on {
            true => "Recording from power-on (F7 stops)".into(),
            false => "Recording (F7 stops)".into(),
        });
    }

    /// Stops the recording and says where the movie went.
    pub fn stop_recording(&mut self) {
        let Some(session) = self.session.as_mut() else {
            return;
        };
        let note = match session.finish_recording() {
            Ok(Some(path)) => {
                let note = format!("Movie saved: {}", path.display());
                crate::out::print_line(&note);
                note
            }
            Ok(None) => "Nothing recorded".into(),
            Err(e) => {
                crate::out::eprint_line(&format!("kairo: movie not saved: {e}"));
                "Movie not saved: see the log".into()
            }
        };
        self.toast(note);
    }

    /// F7: starts recording from this moment, or stops the recording.
    pub fn toggle_recording(&mut self) {
        match self.recording() {
            true => self.stop_recording(),
            false => self.record(false),
        }
    }

    /// Plays the movie at `path` back on the running cart: the cart powers on with the
    /// movie's save RAM, runs unseen to the movie's start, and then shows it. The player's
    /// own save RAM is stored first and left alone until the playback stops.
    pub fn play_movie(&mut self, path: &Path) {
        let loaded = Movie::load(path);
        let Some(session) = self.session.as_mut() else {
            return;
        };
        let Some(cart) = session.last_good.clone() else {
            return;
        };
        let movie = match loaded {
            Ok(movie) if !movie.cart.is_empty() && movie.cart != cart.name() => {
                self.toast(format!("That movie is of {}", movie.cart));
                return;
            }
            Ok(movie) => movie,
            Err(e) => {
                crate::out::eprint_line(&format!("kairo: {e}"));
                self.toast("Movie not played: see the log".into());
                return;
            }
        };
        if let Err(e) = session.finish_recording() {
            crate::out::eprint_line(&format!("kairo: movie not saved: {e}"));
        }
        // The player's save RAM is stored now; the keeper goes, so nothing the movie's game
        // writes is stored, and the next boot reads the player's file again.
        session.store_save(None);
        session.keeper = None;
        session.save_id = None;
        let save = SaveRam::from_bytes(&movie.save);
        let started = Session::start(cart.clone(), save).map(|g| (g, cart));
        if !self.install(started.map_err(Into::into)) {
            return;
        }
        let Some(session) = self.session.as_mut() else {
            return;
        };
        for &input in &movie.ticks[..movie.start] {
            if let Err(fault) = session.advance(input, None) {
                self.show_error(fault);
                return;
            }
        }
        // Played unheard, as fast as the machine goes.
        session.audio.clear();
        session.movie = MovieMode::Playing {
            movie,
            path: path.to_path_buf(),
        };
        let name = path.file_stem().unwrap_or_default().to_string_lossy();
        self.toast(format!("Playing {name}"));
    }

    /// Stops a playback: the cart powers on again with the player's own save RAM.
    pub fn stop_playback(&mut self) {
        if !self.playing_back() {
            return;
        }
        if let Some(session) = self.session.as_mut() {
            session.movie = MovieMode::Off;
        }
        self.retry();
        self.toast("Playback stopped".into());
    }

    /// The movie playing back has ended: the game waits on its last picture.
    pub(super) fn playback_finished(&mut self) {
        let Some(MovieMode::Playing { path, .. }) = self.session.as_ref().map(|s| &s.movie) else {
            return;
        };
        let items = vec![
            ("Stop playback".to_string(), UiAction::StopPlayback),
            ("Play again".to_string(), UiAction::PlayMovie(path.clone())),
        ];
        self.screen = Screen::Paused(Menu::new("PLAYBACK FINISHED", items));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_are_utc_calendar_times() {
        assert_eq!(utc_stamp(0), "1970-01-01_00-00-00");
        assert_eq!(utc_stamp(951_782_400), "2000-02-29_00-00-00");
        assert_eq!(utc_stamp(1_795_625_999), "2026-11-25_16-59-59");
        assert_eq!(utc_stamp(4_107_542_400), "2100-03-01_00-00-00");
    }

    #[test]
    fn names_never_overwrite_a_movie() {
        let dir = std::env::temp_dir().join(format!("kairo-movie-names-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let first = new_path(&dir, 0);
        std::fs::write(&first, "x").unwrap();
        let second = new_path(&dir, 0);
        assert_eq!(
            second.file_name().unwrap(),
            "1970-01-01_00-00-00-2.kmv",
            "{second:?}"
        );
        std::fs::write(&second, "x").unwrap();
        assert_eq!(list(&dir), [second, first]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn clocks_read_minutes_and_seconds() {
        assert_eq!(clock(0), "0:00");
        assert_eq!(clock(60 * 75 + 59), "1:15");
    }
}
