//! GIFs of the last seconds of play (F9): every vblank the game is shown, its picture goes
//! into a [`FrameHistory`]; F9 takes the history as a clip and encodes it on a thread of its
//! own, so the game never waits, into the screenshot folder; a toast says where the GIF went
//! (or why it did not) once it is written.

use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, TryRecvError};

use super::{Screen, Shell, draw::free_path};
use crate::clip::{ClipError, FrameHistory};
use crate::session::Session;

/// Why a GIF from the window was not saved.
#[derive(Debug, thiserror::Error)]
pub enum GifError {
    #[error("{0}")]
    Clip(#[from] ClipError),
    #[error("{}: {source}", dir.display())]
    Folder {
        dir: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot start the encoder: {0}")]
    Thread(std::io::Error),
    #[error("the encoder stopped without a word")]
    Lost,
}

/// The window's GIF recorder: the recent pictures, and the GIF being encoded, if any.
#[derive(Debug, Default)]
pub struct GifRecorder {
    history: FrameHistory,
    /// The cart the pictures are of: another cart starts the history afresh (a reset or a
    /// reload of the same cart does not, as it is what was seen).
    cart: String,
    /// Where the encoder thread reports how it went.
    saving: Option<Receiver<Result<PathBuf, GifError>>>,
}

impl GifRecorder {
    /// The pictures kept.
    pub fn history(&self) -> &FrameHistory {
        &self.history
    }

    /// Whether a GIF is being encoded.
    pub fn busy(&self) -> bool {
        self.saving.is_some()
    }
}

/// Screenshots (F12) and GIFs (F9): the folder they go to, and the GIF recorder.
#[derive(Debug)]
pub(super) struct Capture {
    pub dir: PathBuf,
    pub gif: GifRecorder,
}

impl Capture {
    pub fn new(dir: PathBuf) -> Capture {
        Capture {
            dir,
            gif: GifRecorder::default(),
        }
    }
}

impl Shell {
    /// Where screenshots and GIFs go from now on.
    pub fn set_screenshot_dir(&mut self, dir: PathBuf) {
        self.capture.dir = dir;
    }

    /// F9: saves the last seconds of the game as a GIF in the screenshot folder. The file is
    /// encoded on its own thread; a toast says where it went when it is written.
    pub fn save_gif(&mut self) {
        if self.capture.gif.busy() {
            self.toast("Still saving the last GIF".into());
            return;
        }
        let Some(console) = self.console() else {
            self.toast("No game to record".into());
            return;
        };
        let clip = self.capture.gif.history.clip();
        if clip.is_empty() {
            self.toast("No game pictures recorded yet".into());
            return;
        }
        let dir = self.capture.dir.clone();
        let path = match free_path(&dir, console.cart().name(), "gif") {
            Ok(path) => path,
            Err(source) => {
                self.report_gif(&Err(GifError::Folder { dir, source }));
                return;
            }
        };
        let (done, report) = mpsc::channel();
        let encoder = std::thread::Builder::new()
            .name("kairo-gif".into())
            .spawn(move || {
                let saved = clip.save(&path).map(|()| path).map_err(GifError::from);
                // The shell may be gone (the window closed): nobody to tell then.
                let _ = done.send(saved);
            });
        match encoder {
            Ok(_) => {
                self.capture.gif.saving = Some(report);
                let seconds = self.capture.gif.history.seconds();
                self.toast(format!("Saving GIF (last {seconds:.1} s)..."));
            }
            Err(e) => self.report_gif(&Err(GifError::Thread(e))),
        }
    }

    /// Each vblank: keeps the game's picture when the game is shown, and tells how a GIF
    /// being saved went once it is written.
    pub(super) fn gif_vblank(&mut self) {
        if matches!(self.screen, Screen::Playing)
            && let Some(console) = self
                .session
                .as_ref()
                .and_then(|s| s.game.as_ref())
                .map(Session::console)
        {
            let name = console.cart().name();
            if self.capture.gif.cart != name {
                self.capture.gif.history.clear();
                self.capture.gif.cart = name.to_string();
            }
            self.capture.gif.history.capture(console);
        }
        let outcome = match self.capture.gif.saving.as_ref().map(Receiver::try_recv) {
            None | Some(Err(TryRecvError::Empty)) => return,
            Some(Ok(outcome)) => outcome,
            Some(Err(TryRecvError::Disconnected)) => Err(GifError::Lost),
        };
        self.report_gif(&outcome);
    }

    /// Waits for the GIF being saved, if any, shows how it went and returns it (tests, and
    /// closing the window, which should not lose a GIF asked for just before).
    pub fn finish_gif(&mut self) -> Option<Result<PathBuf, GifError>> {
        let report = self.capture.gif.saving.as_ref()?;
        let outcome = report.recv().unwrap_or(Err(GifError::Lost));
        self.report_gif(&outcome);
        Some(outcome)
    }

    /// Says how a save went: a toast short enough for the screen's 30 columns (the file's
    /// name), and the whole path or error on the terminal.
    fn report_gif(&mut self, outcome: &Result<PathBuf, GifError>) {
        self.capture.gif.saving = None;
        match outcome {
            Ok(path) => {
                crate::out::print_line(&format!("kairo: saved {}", path.display()));
                let name = path.file_name().unwrap_or(path.as_os_str());
                self.toast(format!("Saved {}", name.to_string_lossy()));
            }
            Err(e) => {
                crate::out::eprint_line(&format!("kairo: GIF failed: {e}"));
                self.toast(format!("GIF failed: {e}"));
            }
        }
    }

    /// The window's GIF recorder.
    pub fn gif(&self) -> &GifRecorder {
        &self.capture.gif
    }
}
