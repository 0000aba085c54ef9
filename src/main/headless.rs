//! `kairo headless`: its options, and the run without a window (plain, from a movie or a
//! state, or as a netplay peer), with everything it can write at the end.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use kairo::cart::Cart;
use kairo::clip::{ClipOptions, FrameHistory};
use kairo::error::ToolError;
use kairo::movie::Movie;
use kairo::out::{Printer, eprint_line};
use kairo::session::Session;

#[cfg(feature = "netplay")]
use super::net;
use super::{NetArgs, ToolResult};

#[derive(Args)]
pub(crate) struct HeadlessArgs {
    /// Cart folder or .kcart.
    pub(crate) cart: PathBuf,
    /// Vblanks to run (60 per second).
    #[arg(long, default_value_t = 60)]
    pub(crate) frames: u64,
    /// Input movie to play.
    #[arg(long, value_name = "MOVIE")]
    pub(crate) input: Option<PathBuf>,
    /// Scripted input for player 1: steps `BUTTONS*N` joined by commas, each holding its
    /// buttons (names as `btn` takes them, joined by `+`; `-` for none) for N vblanks, e.g.
    /// `start*1,-*40,right+a*20,right*150`.
    #[arg(
        long,
        value_name = "SCRIPT",
        conflicts_with = "input",
        allow_hyphen_values = true
    )]
    pub(crate) press: Option<String>,
    /// Scripted input for player 2 (as --press).
    #[arg(
        long,
        value_name = "SCRIPT",
        conflicts_with = "input",
        allow_hyphen_values = true
    )]
    pub(crate) press2: Option<String>,
    /// Scripted input for player 3 (as --press).
    #[arg(
        long,
        value_name = "SCRIPT",
        conflicts_with = "input",
        allow_hyphen_values = true
    )]
    pub(crate) press3: Option<String>,
    /// Scripted input for player 4 (as --press).
    #[arg(
        long,
        value_name = "SCRIPT",
        conflicts_with = "input",
        allow_hyphen_values = true
    )]
    pub(crate) press4: Option<String>,
    /// Write the input of the run as a movie.
    #[arg(long, value_name = "MOVIE")]
    pub(crate) record: Option<PathBuf>,
    /// Save the final picture as PNG.
    #[arg(long, value_name = "FILE.png")]
    pub(crate) screenshot: Option<PathBuf>,
    /// Write the audio the machine produced as a WAV file (stereo float, 48 kHz).
    #[arg(long, value_name = "FILE.wav")]
    pub(crate) wav: Option<PathBuf>,
    /// End the output with `hash <16 hex digits>` of the final picture.
    #[arg(long)]
    pub(crate) hash: bool,
    /// Folder holding save RAM files: read at power-on and written at the end (by default
    /// save RAM starts empty and nothing is written). A replay (--input, --load-state) runs
    /// on its own save RAM and leaves these files unchanged.
    #[arg(long, value_name = "DIR")]
    pub(crate) data: Option<PathBuf>,
    /// Store the save RAM of a replay (--input, --load-state) in --data DIR all the same,
    /// replacing the player's save data there.
    #[arg(long, requires = "data")]
    pub(crate) write_save: bool,
    /// Save the whole machine after the run, to continue later with --load-state.
    #[arg(long, value_name = "FILE")]
    pub(crate) save_state: Option<PathBuf>,
    /// Continue from a state saved with --save-state (reading --input from the state's
    /// vblank onwards).
    #[arg(long, value_name = "FILE")]
    pub(crate) load_state: Option<PathBuf>,
    /// Write the end of the run as an animated GIF (the last 10 seconds, or --gif-seconds;
    /// 30 fps, twice the console's size).
    #[arg(long, value_name = "FILE")]
    pub(crate) gif: Option<PathBuf>,
    /// Seconds of the run's end that --gif holds (at most 60).
    #[arg(long, value_name = "S", requires = "gif")]
    pub(crate) gif_seconds: Option<f64>,
    /// Size of the --gif pictures, times the console's 256x256 (1 to 4; default 2).
    #[arg(long, value_name = "N", requires = "gif")]
    pub(crate) gif_scale: Option<u16>,
    /// Draw debug overlays on the --screenshot (comma-separated: collision, platforms,
    /// bodies, hitboxes, bullets, player, or all); the hash is of the game's own picture.
    #[arg(long, value_name = "NAMES", requires = "screenshot", value_parser = parse_overlays)]
    pub(crate) overlay: Option<Overlays>,
    /// Write the tile sheet, palettes, background layers, OAM and bullet table as PNGs
    /// (with index.txt) into DIR after the last frame; see docs/debugging.md.
    #[arg(long, value_name = "DIR")]
    pub(crate) dump_vram: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) net: NetArgs,
}

/// The overlays named by `--overlay` (one value holding a list).
#[derive(Clone, Debug)]
pub(crate) struct Overlays(Vec<kairo::views::overlays::Overlay>);

fn parse_overlays(list: &str) -> Result<Overlays, String> {
    kairo::views::overlays::Overlay::parse_list(list).map(Overlays)
}

pub(crate) fn headless(args: HeadlessArgs) -> ToolResult {
    #[cfg(feature = "netplay")]
    if args.net.net_port.is_some() || args.net.net_room.is_some() {
        return net::headless_net(&args);
    }
    let mut movie = args.input.as_deref().map(Movie::load).transpose()?;
    // Scripted input plays like a movie, but it is new play: save RAM comes from --data.
    let scripts = [&args.press, &args.press2, &args.press3, &args.press4].map(Option::as_deref);
    let pressed = match scripts.iter().any(Option::is_some) {
        true => Some(Movie::from_press(&scripts).map_err(ToolError::Press)?),
        false => None,
    };
    let cart = Cart::open(&args.cart)?;
    for warning in &cart.warnings {
        eprint_line(&format!("kairo: warning: {warning}"));
    }
    // A loaded state brings its console and the input of every vblank before it.
    let mut session = match &args.load_state {
        Some(path) => {
            let session =
                Session::from_state_file(cart, path).map_err(|source| ToolError::State {
                    path: path.clone(),
                    source,
                })?;
            let offset = session.history().ticks.len();
            if let Some(movie) = &mut movie {
                movie.ticks.drain(..offset.min(movie.ticks.len()));
            }
            session
        }
        None => {
            let save = kairo::saving::ram::starting_save(
                &cart,
                movie.as_ref(),
                args.data.as_deref(),
                &mut |warning| eprint_line(&format!("kairo: {warning}")),
            );
            Session::start(cart, save)?
        }
    };
    if let Some(pressed) = pressed {
        movie = Some(pressed);
    }
    let mut pictures = match &args.gif {
        Some(_) => {
            let defaults = ClipOptions::default();
            Some(FrameHistory::new(ClipOptions {
                seconds: args.gif_seconds.unwrap_or(defaults.seconds),
                scale: args.gif_scale.unwrap_or(defaults.scale),
                ..defaults
            })?)
        }
        None => None,
    };
    let mut out = Printer::stdout();
    let run = kairo::commands::headless::run_watched(
        &mut session,
        args.frames,
        movie.as_ref(),
        &mut |line| out.line(line),
        args.wav.is_some(),
        &mut |console| {
            if let Some(pictures) = &mut pictures {
                pictures.capture(console);
            }
        },
    );
    if let Some(path) = &args.wav {
        kairo::commands::headless::write_wav(path, &run.audio)?;
    }
    if let (Some(path), Some(pictures)) = (&args.gif, &pictures) {
        pictures.clip().save(path)?;
    }
    // The run's input since power-on, including a loaded state's.
    if let Some(path) = &args.record {
        session.history().save(path)?;
    }
    if let Some(dir) = &args.data {
        // A replay (a movie, or a state's history) runs on the save RAM it was recorded
        // with: storing it would overwrite the player's own save data.
        let replaying = args.input.is_some() || args.load_state.is_some();
        if !replaying || args.write_save {
            kairo::saving::ram::store_save(session.console(), dir)?;
        } else if session.console().machine().save().changes() > 0 {
            eprint_line(&format!(
                "kairo: the replay's save RAM was not stored in {} (its save files are unchanged; --write-save stores it)",
                dir.display()
            ));
        }
    }
    let fault = run.fault_error();
    if fault.is_none()
        && let Some(path) = &args.save_state
    {
        let bytes = session.save_state().map_err(|source| ToolError::State {
            path: path.clone(),
            source,
        })?;
        kairo::fsutil::write_atomic(path, &bytes).map_err(ToolError::write(path))?;
    }
    let console = session.console();
    if let Some(dir) = &args.dump_vram {
        kairo::views::vram::dump::dump_vram(console, dir)?;
    }
    out.line(&run.summary());
    let rgba = console.rgba();
    if let Some(path) = &args.screenshot {
        let shot = match &fault {
            // The picture the window's error screen shows.
            Some(fault) => kairo::views::ui_canvas::fault_picture(&fault.to_string()),
            None => {
                let mut shot = rgba.clone();
                if let Some(Overlays(overlays)) = &args.overlay {
                    kairo::views::overlays::draw(console.machine(), overlays, &mut shot);
                }
                shot
            }
        };
        kairo::views::screenshot::save_png(path, &shot).map_err(ToolError::write(path))?;
    }
    if args.hash {
        out.line(&format!("hash {}", kairo::hash::frame_hash_hex(&rgba)));
    }
    out.finish().map_err(ToolError::Stdout)?;
    match fault {
        Some(fault) => Err(fault),
        None => Ok(ExitCode::SUCCESS),
    }
}
