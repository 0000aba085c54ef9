//! The `kairo` command: the console window, headless runs, cart checking and packing, and
//! benchmarks. See `kairo --help` and docs/ for each command.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use kairo::cart::Cart;
use kairo::cart::files::CartFiles;
use kairo::error::ToolError;
use kairo::out::{Printer, eprint_line};
use kairo::session::Session;
use kairo::views::display_filter::DisplayFilter;

#[path = "main/headless.rs"]
mod headless;
#[path = "main/net.rs"]
mod net;
use headless::{HeadlessArgs, headless};
use net::{LobbyArgs, NetArgs, NetplayArgs, lobby, netplay_window};

#[derive(Parser)]
#[command(
    name = "kairo",
    version,
    about = "Kairo, a retro fantasy console",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Cart to open in the window (a folder or a .kcart); without one, the cart browser.
    cart: Option<PathBuf>,
    /// Display filter for this run, over the one saved by F10 (docs/display.md).
    #[arg(long, value_name = "NAME", value_parser = filter_parser())]
    filter: Option<DisplayFilter>,
}

/// `--filter NAME`: one of the display filters' names (clap lists them when it is not).
fn filter_parser() -> impl clap::builder::TypedValueParser<Value = DisplayFilter> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(DisplayFilter::ALL.map(|f| PossibleValue::new(f.name())))
        .map(|name| DisplayFilter::parse(&name).unwrap_or_default())
}

#[derive(Subcommand)]
enum Command {
    /// Open a cart in the console window.
    Run(RunArgs),
    /// Run a cart without a window.
    Headless(Box<HeadlessArgs>),
    /// Play a cart with others in the console window, over UDP or in a room of a lobby
    /// server (rollback netplay; see docs/netplay.md).
    Netplay(NetplayArgs),
    /// Run the lobby server netplay rooms meet on (signalling only: no game data).
    Lobby(LobbyArgs),
    /// Run a cart headless with the profiler: where each frame's budget went.
    Profile(ProfileArgs),
    /// Validate a cart: every problem as file:line: message; exit 1 if any.
    Check(CheckArgs),
    /// Pack a cart folder into one .kcart file.
    Pack(PackArgs),
    /// Preview a BulletML pattern: it fires at a player marker you move.
    Pattern(PatternArgs),
    /// Measure headless throughput.
    Bench(BenchArgs),
    /// Export a cart as a folder that plays it in a web browser.
    Export(ExportArgs),
    /// Import a PICO-8 cart (.p8 or .p8.png) as a Kairo cart folder.
    Import(ImportArgs),
    /// Play a music file (.mml) or a cart's music or sound effect, or write it as a WAV.
    Sound(SoundArgs),
}

#[derive(Args)]
struct SoundArgs {
    /// A music file (.mml: lines of tracks by letter A-H, as a cart's music files), or a cart
    /// (folder or .kcart) with --music NAME or --sfx NAME.
    file: PathBuf,
    /// Play the cart's [[music]] of this name.
    #[arg(long, value_name = "NAME", conflicts_with = "sfx")]
    music: Option<String>,
    /// Play the cart's [[sfx]] of this name.
    #[arg(long, value_name = "NAME")]
    sfx: Option<String>,
    /// Write the tune to this WAV file (16-bit stereo, 48 kHz) instead of playing it.
    #[arg(long, value_name = "OUT.wav")]
    wav: Option<PathBuf>,
}

#[derive(Args)]
struct ImportArgs {
    /// The PICO-8 cart: a .p8 file or a .p8.png image.
    source: PathBuf,
    /// The cart folder to write (it must not exist, or be empty); default: the cart's name.
    #[arg(short = 'o', long = "out", value_name = "DIR")]
    out: Option<PathBuf>,
}

#[derive(Args)]
struct ExportArgs {
    /// Cart folder or .kcart.
    cart: PathBuf,
    /// The folder to write (index.html, the runtime and the packed cart).
    #[arg(long, value_name = "OUT_DIR")]
    web: PathBuf,
    /// The lobby server the page's "Play online" uses (`kairo lobby`, reachable from the
    /// players' browsers), e.g. wss://lobby.example.org or ws://192.168.1.20:3536. Without
    /// it, players type a server's URL; an invite link (#room=CODE&server=URL) names its own.
    #[arg(long, value_name = "URL", value_parser = kairo::commands::export::check_lobby)]
    lobby: Option<String>,
    /// A STUN server the page asks for its address outside the player's NAT (repeatable);
    /// `none` for none. Default: the one `kairo netplay` uses (stun:stun.l.google.com:19302).
    #[arg(long, value_name = "URL", value_parser = kairo::commands::export::check_stun)]
    stun: Vec<String>,
    /// A TURN server the page relays through when no direct path exists, turn:HOST:PORT.
    /// None unless given (a player's invite link can name one: #turn=URL).
    #[arg(long, value_name = "URL", value_parser = kairo::commands::export::check_turn)]
    turn: Option<String>,
    /// The TURN server's user name, written into the page: anyone with the page can read it.
    #[arg(long, value_name = "NAME", requires = "turn")]
    turn_user: Option<String>,
    /// The TURN server's password, written into the page: anyone with the page can read it
    /// (give a TURN server's short-lived credentials, or a relay meant for this game only).
    #[arg(long, value_name = "TEXT", requires = "turn")]
    turn_password: Option<String>,
}

#[derive(Args)]
struct PatternArgs {
    /// The BulletML file.
    file: PathBuf,
    /// Run without a window.
    #[arg(long)]
    headless: bool,
    /// Vblanks to run headless.
    #[arg(long, default_value_t = 300)]
    frames: u64,
    /// Save the final picture as PNG (headless).
    #[arg(long, value_name = "FILE.png")]
    screenshot: Option<PathBuf>,
    /// Print the number of live bullets after every frame (headless).
    #[arg(long)]
    stats: bool,
    /// Start the pattern again the frame after it ends, as the games do with their bosses.
    #[arg(long = "loop")]
    looping: bool,
    /// BulletML's $rank (0 to 1; the games raise it with the difficulty; 0.5 by default, as
    /// in a cart that never calls bu_rank).
    #[arg(long, default_value_t = 0.5, value_parser = parse_rank)]
    rank: f64,
}

fn parse_rank(text: &str) -> Result<f64, String> {
    let rank: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number"))?;
    kairo::commands::preview::Preview::check_rank(rank)
}

#[derive(Args)]
struct RunArgs {
    /// Cart folder or .kcart.
    cart: PathBuf,
    /// Window scale (integer).
    #[arg(long, default_value_t = 3)]
    scale: u32,
    /// Start in fullscreen.
    #[arg(long)]
    fullscreen: bool,
    /// Start with the profiler overlay shown.
    #[arg(long)]
    profile: bool,
    /// Display filter for this run, over the one saved by F10 (docs/display.md).
    #[arg(long, value_name = "NAME", value_parser = filter_parser())]
    filter: Option<DisplayFilter>,
}

#[derive(Args)]
struct ProfileArgs {
    /// Cart folder or .kcart.
    cart: PathBuf,
    /// Vblanks to run (60 per second).
    #[arg(long, default_value_t = 600)]
    frames: u64,
    /// Input movie to play.
    #[arg(long, value_name = "MOVIE")]
    input: Option<PathBuf>,
    /// Write a chart of the run (stacked bars per frame, budget line, slowdown marks).
    #[arg(long, value_name = "FILE.svg")]
    svg: Option<PathBuf>,
    /// Write every frame's numbers and the summary as JSON.
    #[arg(long, value_name = "FILE.json")]
    json: Option<PathBuf>,
    /// Write a Chrome trace-event JSON file (opens in Perfetto).
    #[arg(long, value_name = "FILE.json")]
    trace: Option<PathBuf>,
    /// Exit with status 1 if any frame's load is above PCT percent of the budget.
    #[arg(long, value_name = "PCT")]
    max_load: Option<f64>,
}

#[derive(Args)]
struct CheckArgs {
    /// Cart folder or .kcart.
    cart: PathBuf,
    /// Vblanks to run the cart without input after the static checks.
    #[arg(long, default_value_t = 60)]
    frames: u64,
    /// Accepted for older scripts: every conversion the loader made is always printed
    /// (`warning:` and `note:` lines).
    #[arg(long, hide = true)]
    verbose: bool,
}

#[derive(Args)]
struct PackArgs {
    /// Cart folder.
    dir: PathBuf,
    /// The .kcart file to write.
    #[arg(short, long, value_name = "FILE.kcart")]
    output: PathBuf,
}

#[derive(Args)]
struct BenchArgs {
    /// Workloads to run (default: all).
    workloads: Vec<String>,
    /// Folder of the bundled carts.
    #[arg(long, default_value = "carts")]
    carts: PathBuf,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Run(args)) => window(
            Some(args.cart),
            args.scale,
            args.fullscreen,
            args.profile,
            args.filter,
        ),
        None => window(cli.cart, 3, false, false, cli.filter),
        Some(Command::Headless(args)) => headless(*args).map_err(CliError::from),
        Some(Command::Netplay(args)) => netplay_window(args),
        Some(Command::Lobby(args)) => lobby(args),
        Some(Command::Profile(args)) => profile(args).map_err(CliError::from),
        Some(Command::Check(args)) => check(args).map_err(CliError::from),
        Some(Command::Pack(args)) => pack(args).map_err(CliError::from),
        Some(Command::Pattern(args)) => pattern(args),
        Some(Command::Bench(args)) => bench(args).map_err(CliError::from),
        Some(Command::Export(args)) => export(args).map_err(CliError::from),
        Some(Command::Import(args)) => import(args).map_err(CliError::from),
        Some(Command::Sound(args)) => sound(args).map_err(CliError::from),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprint_line(&format!("kairo: {error}"));
            ExitCode::FAILURE
        }
    }
}

/// Why a command failed: what a tool reports, or the window's own failures.
#[derive(Debug, thiserror::Error)]
enum CliError {
    #[error(transparent)]
    Tool(#[from] ToolError),
    #[cfg(feature = "host")]
    #[error(transparent)]
    Host(#[from] kairo::host::HostError),
    #[cfg(not(feature = "host"))]
    #[error("this build has no window (built without the `host` feature); {0}")]
    NoWindow(&'static str),
}

type CmdResult = Result<ExitCode, CliError>;
type ToolResult = kairo::error::Result<ExitCode>;

#[cfg(feature = "host")]
fn window(
    cart: Option<PathBuf>,
    scale: u32,
    fullscreen: bool,
    profile: bool,
    filter: Option<DisplayFilter>,
) -> CmdResult {
    let options = kairo::host::WindowOptions {
        cart,
        scale,
        fullscreen,
        profile,
        pattern: None,
        preview: kairo::commands::preview::Preview::default(),
        netplay: None,
        filter,
    };
    kairo::host::run(options)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(not(feature = "host"))]
fn window(
    _cart: Option<PathBuf>,
    _scale: u32,
    _fullscreen: bool,
    _profile: bool,
    _filter: Option<DisplayFilter>,
) -> CmdResult {
    Err(CliError::NoWindow("use `kairo headless`"))
}

fn profile(args: ProfileArgs) -> ToolResult {
    let options = kairo::profiling::command::ProfileOptions {
        cart: args.cart,
        vblanks: args.frames,
        input: args.input,
        svg: args.svg,
        json: args.json,
        trace: args.trace,
        max_load: args.max_load,
    };
    let mut out = Printer::stdout();
    let outcome = kairo::profiling::command::profile(&options, &mut |line| out.line(line))?;
    out.text(&outcome.report);
    out.finish().map_err(ToolError::Stdout)?;
    let (Some(limit), false) = (options.max_load, outcome.over_limit.is_empty()) else {
        return Ok(ExitCode::SUCCESS);
    };
    let listed: Vec<String> = outcome
        .over_limit
        .iter()
        .take(20)
        .map(|(frame, load)| format!("{frame} ({load:.1}%)"))
        .collect();
    eprint_line(&format!(
        "kairo: {} frame(s) over the {limit}% load limit: {}{}",
        outcome.over_limit.len(),
        listed.join(", "),
        if outcome.over_limit.len() > 20 {
            ", ..."
        } else {
            ""
        }
    ));
    Ok(ExitCode::FAILURE)
}

fn check(args: CheckArgs) -> ToolResult {
    let report = kairo::commands::check::check_cart_report(&args.cart, args.frames);
    let mut out = Printer::stdout();
    for warning in &report.warnings {
        out.line(&format!("warning: {warning}"));
    }
    for note in &report.notes {
        out.line(&format!("note: {note}"));
    }
    let problems = report.problems;
    if problems.is_empty() {
        out.line(&format!("{}: ok", args.cart.display()));
        out.finish().map_err(ToolError::Stdout)?;
        return Ok(ExitCode::SUCCESS);
    }
    for problem in &problems {
        out.line(problem);
    }
    out.finish().map_err(ToolError::Stdout)?;
    eprint_line(&format!(
        "kairo: {} problem(s) in {}",
        problems.len(),
        args.cart.display()
    ));
    Ok(ExitCode::FAILURE)
}

fn pack(args: PackArgs) -> ToolResult {
    if !args.dir.is_dir() {
        return Err(ToolError::NotCartFolder(args.dir));
    }
    let files = CartFiles::open(&args.dir)?;
    if let Err(problems) = kairo::commands::check::static_check(files.clone()) {
        return Err(ToolError::NotPacked(kairo::cart::CartErrors(problems)));
    }
    let bytes = kairo::cart::kcart::pack(files.iter())?;
    kairo::fsutil::write_atomic(&args.output, &bytes).map_err(ToolError::write(&args.output))?;
    let mut out = Printer::stdout();
    out.line(&format!(
        "{}: {} files, {} bytes",
        args.output.display(),
        files.iter().count(),
        bytes.len()
    ));
    out.finish().map_err(ToolError::Stdout)?;
    Ok(ExitCode::SUCCESS)
}

fn export(args: ExportArgs) -> ToolResult {
    let online = kairo::commands::export::Online {
        lobby: args.lobby,
        stun: args.stun,
        turn: args.turn,
        turn_user: args.turn_user,
        turn_password: args.turn_password,
    };
    let exported = kairo::commands::export::export_web_online(&args.cart, &args.web, &online)?;
    let mut out = Printer::stdout();
    for (path, bytes) in &exported.files {
        out.line(&format!("{}: {bytes} bytes", path.display()));
    }
    out.line(&format!(
        "{}: {} bytes in all; serve the folder and open index.html",
        args.web.display(),
        exported.total()
    ));
    out.finish().map_err(ToolError::Stdout)?;
    Ok(ExitCode::SUCCESS)
}

fn import(args: ImportArgs) -> ToolResult {
    use kairo::import::pico8::cart;
    let out = args
        .out
        .unwrap_or_else(|| cart::default_folder(&args.source));
    let report = cart::import(&args.source, &out).map_err(|e| ToolError::Import(e.to_string()))?;
    let mut printer = Printer::stdout();
    for file in &report.written {
        printer.line(&format!("{}", out.join(file).display()));
    }
    for missing in &report.not_imported {
        printer.line(&format!("not imported: {missing}"));
    }
    for use_ in &report.unsupported {
        printer.line(&format!("unsupported: {use_}"));
    }
    printer.line(&format!(
        "{}: imported; run it with `kairo {}`",
        out.display(),
        out.display()
    ));
    printer.finish().map_err(ToolError::Stdout)?;
    Ok(ExitCode::SUCCESS)
}

fn sound(args: SoundArgs) -> ToolResult {
    use kairo::commands::headless::{WavFormat, write_wav_as};
    let tune =
        kairo::commands::sound::Tune::open(&args.file, args.music.as_deref(), args.sfx.as_deref())?;
    let mut out = Printer::stdout();
    match &args.wav {
        Some(path) => {
            let (samples, ending) = tune.render();
            write_wav_as(path, &samples, WavFormat::Pcm16)?;
            out.line(&format!(
                "{}: {}, {}",
                path.display(),
                tune.title,
                ending.describe()
            ));
        }
        None => play_tune(&tune, &mut out),
    }
    out.finish().map_err(ToolError::Stdout)?;
    Ok(ExitCode::SUCCESS)
}

/// Plays `tune` through the sound card; without one, a warning (the tune can still be
/// written with --wav).
#[cfg(feature = "host")]
fn play_tune(tune: &kairo::commands::sound::Tune, out: &mut Printer<std::io::Stdout>) {
    use kairo::host::audio::{AudioOut, play_to_end};
    let device = match AudioOut::open_quietly() {
        Ok(device) => device,
        Err(kairo::host::HostError::NoSound(why)) => return no_sound(&why),
        Err(other) => return no_sound(&other.to_string()),
    };
    out.line(&format!("playing {} (Ctrl-C stops)", tune.title));
    let mut player = tune.player();
    play_to_end(device, |vblank| player.next_vblank(vblank));
    out.line(&player.ending().describe());
}

#[cfg(not(feature = "host"))]
fn play_tune(_tune: &kairo::commands::sound::Tune, _out: &mut Printer<std::io::Stdout>) {
    no_sound("this build has no sound output: it was built without the `host` feature");
}

fn no_sound(why: &str) {
    eprint_line(&format!(
        "kairo: warning: no sound ({why}); nothing played. --wav OUT writes the tune to a file"
    ));
}

fn pattern(args: PatternArgs) -> CmdResult {
    let preview = kairo::commands::preview::Preview {
        looping: args.looping,
        rank: args.rank,
    };
    let cart = kairo::commands::preview::previewer_cart(&args.file, preview)?;
    if !args.headless {
        return pattern_window(args.file, preview);
    }
    Ok(pattern_headless(args, cart)?)
}

fn pattern_headless(args: PatternArgs, cart: Cart) -> ToolResult {
    let mut session = Session::start(cart, kairo::saveram::SaveRam::default())?;
    let mut out = Printer::stdout();
    let run =
        kairo::commands::headless::run(&mut session, args.frames, None, &mut |line| out.line(line));
    if let Some(fault) = run.fault_error() {
        return Err(fault);
    }
    if args.stats {
        out.line("frame bullets dropped cycles");
        for report in &run.reports {
            out.line(&format!(
                "{} {} {} {}",
                report.frame,
                report.bullets_live,
                report.bullets_dropped,
                report.total()
            ));
        }
        let peak = run
            .reports
            .iter()
            .map(|r| r.bullets_live)
            .max()
            .unwrap_or(0);
        out.line(&format!("peak bullets {peak}"));
    }
    out.line(&run.summary());
    if let Some(path) = &args.screenshot {
        kairo::views::screenshot::save_png(path, &session.console().rgba())
            .map_err(ToolError::write(path))?;
    }
    out.finish().map_err(ToolError::Stdout)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(feature = "host")]
fn pattern_window(file: PathBuf, preview: kairo::commands::preview::Preview) -> CmdResult {
    let options = kairo::host::WindowOptions {
        cart: None,
        scale: 3,
        fullscreen: false,
        profile: false,
        pattern: Some(file),
        preview,
        netplay: None,
        filter: None,
    };
    kairo::host::run(options)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(not(feature = "host"))]
fn pattern_window(_file: PathBuf, _preview: kairo::commands::preview::Preview) -> CmdResult {
    Err(CliError::NoWindow("use --headless"))
}

fn bench(args: BenchArgs) -> ToolResult {
    let names: Vec<String> = if args.workloads.is_empty() {
        kairo::harness::bench::workloads()
            .into_iter()
            .map(str::to_string)
            .collect()
    } else {
        args.workloads
    };
    let mut out = Printer::stdout();
    for name in names {
        let figure = kairo::harness::bench::run_workload(&name, &args.carts)?;
        out.line(&figure.to_string());
        // Nobody reads the figures any more: the rest would only take time.
        if out.stopped() {
            break;
        }
    }
    out.finish().map_err(ToolError::Stdout)?;
    Ok(ExitCode::SUCCESS)
}
