//! Why a tool command failed. The command line prints each error as `kairo: ` and its text;
//! a cart with several problems prints one line per problem.

use std::path::PathBuf;

use thiserror::Error;

use crate::bullets::bulletml::PatternError;
use crate::cart::kcart::KcartError;
use crate::cart::{CartError, CartErrors};
use crate::fsutil::ReadError;
use crate::movie::MovieError;
use crate::script::error::ScriptError;

#[derive(Debug, Error)]
pub enum ToolError {
    /// Every problem found while loading a cart, one per line.
    #[error("{0}")]
    Cart(#[from] CartErrors),
    #[error("{0}")]
    CartFile(#[from] CartError),
    #[error("not packing a cart with problems:\n{0}")]
    NotPacked(CartErrors),
    #[error("{}: not a cart folder", .0.display())]
    NotCartFolder(PathBuf),
    #[error("{0}")]
    Kcart(#[from] KcartError),
    /// The script failed to boot or stopped with a fault.
    #[error("{0}")]
    Script(#[from] ScriptError),
    /// The script stopped with a fault in a headless run: its first line names the frame.
    #[error("{}", at_frame(fault, *frame))]
    FaultAt { frame: u64, fault: ScriptError },
    /// The script stopped with a fault part way through a profile.
    #[error("the cart stopped after {frames} frames: {fault}")]
    StoppedAfter { frames: usize, fault: ScriptError },
    #[error("{0}")]
    Movie(#[from] MovieError),
    /// A `--press` script that cannot be read.
    #[error("{0}")]
    Press(String),
    /// A cart of another console that could not be imported (file:line: what).
    #[error("{0}")]
    Import(String),
    #[error("{0}")]
    Clip(#[from] crate::clip::ClipError),
    /// A netplay match that could not start or ended early.
    #[cfg(feature = "netplay")]
    #[error("netplay: {0}")]
    Net(#[from] crate::netplay::NetError),
    #[error("{}: {source}", path.display())]
    Read { path: PathBuf, source: ReadError },
    #[error("{}: {source}", path.display())]
    State {
        path: PathBuf,
        source: crate::savestate::StateError,
    },
    #[error("{}: not UTF-8 text", .0.display())]
    NotText(PathBuf),
    #[error("{}:{source}", path.display())]
    Pattern { path: PathBuf, source: PatternError },
    /// Every track's first mistake in a music file, one per line.
    #[error("{}", mml_lines(path, errors))]
    Mml {
        path: PathBuf,
        errors: Vec<crate::audio::mml::MmlError>,
    },
    #[error("{}: no tracks: a music file holds lines starting with a track letter A-H", .0.display())]
    NoTracks(PathBuf),
    #[error("{cart} has no {kind} named \"{name}\" (its {kinds}: {known})")]
    NoSuchTune {
        cart: String,
        kind: &'static str,
        kinds: &'static str,
        name: String,
        known: String,
    },
    #[error("{} is a cart: name a tune with --music NAME (its music: {songs}) or --sfx NAME (its sound effects: {sounds})", cart.display())]
    NoTuneNamed {
        cart: PathBuf,
        songs: String,
        sounds: String,
    },
    #[error("{}: cannot write: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write to standard output: {0}; check where the output goes")]
    Stdout(std::io::Error),
    #[error("--max-load must be a positive percentage, got {0}")]
    MaxLoad(f64),
    #[error("unknown workload `{name}` (known: {known})")]
    UnknownWorkload { name: String, known: String },
}

impl ToolError {
    /// A failed write of `path`.
    pub fn write(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> ToolError {
        let path = path.into();
        move |source| ToolError::Write { path, source }
    }
}

pub type Result<T> = std::result::Result<T, ToolError>;

/// A fault's text with ` at frame N` after its first line (the traceback follows).
fn at_frame(fault: &ScriptError, frame: u64) -> String {
    let text = fault.to_string();
    match text.split_once('\n') {
        Some((first, rest)) => format!("{first} at frame {frame}\n{rest}"),
        None => format!("{text} at frame {frame}"),
    }
}

/// `path:line:column: message` for each MML error.
fn mml_lines(path: &std::path::Path, errors: &[crate::audio::mml::MmlError]) -> String {
    let lines: Vec<String> = errors
        .iter()
        .map(|e| format!("{}:{e}", path.display()))
        .collect();
    lines.join("\n")
}
