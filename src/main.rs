//! The `kairo` command: the console window, headless runs, cart checking and packing, and
//! benchmarks. See `kairo --help` and docs/ for each command.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use kairo::cart::Cart;
use kairo::cart::files::CartFiles;
use kairo::console::Console;
use kairo::movie::Movie;
use kairo::out::{Printer, eprint_line};

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
}

#[derive(Subcommand)]
enum Command {
    /// Open a cart in the console window.
    Run(RunArgs),
    /// Run a cart without a window.
    Headless(HeadlessArgs),
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
}

#[derive(Args)]
struct HeadlessArgs {
    /// Cart folder or .kcart.
    cart: PathBuf,
    /// Vblanks to run (60 per second).
    #[arg(long, default_value_t = 60)]
    frames: u64,
    /// Input movie to play.
    #[arg(long, value_name = "MOVIE")]
    input: Option<PathBuf>,
    /// Write the input of the run as a movie.
    #[arg(long, value_name = "MOVIE")]
    record: Option<PathBuf>,
    /// Save the final picture as PNG.
    #[arg(long, value_name = "FILE.png")]
    screenshot: Option<PathBuf>,
    /// Write the audio the machine produced as a WAV file (stereo float, 48 kHz).
    #[arg(long, value_name = "FILE.wav")]
    wav: Option<PathBuf>,
    /// End the output with `hash <16 hex digits>` of the final picture.
    #[arg(long)]
    hash: bool,
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
    /// Also say what the loader converted (sheets cut, colours split into palettes, tiles
    /// copied for rotated cells).
    #[arg(long)]
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
        Some(Command::Run(args)) => {
            window(Some(args.cart), args.scale, args.fullscreen, args.profile)
        }
        None => window(cli.cart, 3, false, false),
        Some(Command::Headless(args)) => headless(args),
        Some(Command::Profile(args)) => profile(args),
        Some(Command::Check(args)) => check(args),
        Some(Command::Pack(args)) => pack(args),
        Some(Command::Pattern(args)) => pattern(args),
        Some(Command::Bench(args)) => bench(args),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprint_line(&format!("kairo: {message}"));
            ExitCode::FAILURE
        }
    }
}

type CmdResult = Result<ExitCode, String>;

#[cfg(feature = "host")]
fn window(cart: Option<PathBuf>, scale: u32, fullscreen: bool, profile: bool) -> CmdResult {
    let options = kairo::host::WindowOptions {
        cart,
        scale,
        fullscreen,
        profile,
        pattern: None,
        pattern_loop: false,
    };
    kairo::host::run(options)
        .map(|()| ExitCode::SUCCESS)
        .map_err(|e| e.to_string())
}

#[cfg(not(feature = "host"))]
fn window(_cart: Option<PathBuf>, _scale: u32, _fullscreen: bool, _profile: bool) -> CmdResult {
    Err("this build has no window (built without the `host` feature); use `kairo headless`".into())
}

fn boot(path: &Path) -> Result<Console, String> {
    let cart = Cart::open(path).map_err(|e| e.to_string())?;
    Console::new(cart).map_err(|e| e.to_string())
}

fn headless(args: HeadlessArgs) -> CmdResult {
    let movie = args
        .input
        .as_deref()
        .map(Movie::load)
        .transpose()
        .map_err(|e| e.to_string())?;
    let mut console = boot(&args.cart)?;
    let mut out = Printer::stdout();
    let mut print = |line: &str| out.line(line);
    let run = if args.wav.is_some() {
        kairo::tools::headless::run_with_audio(
            &mut console,
            args.frames,
            movie.as_ref(),
            &mut print,
        )
    } else {
        kairo::tools::headless::run(&mut console, args.frames, movie.as_ref(), &mut print)
    };
    if let Some(path) = &args.wav {
        kairo::tools::headless::write_wav(path, &run.audio)?;
    }
    if let Some(path) = &args.record {
        run.recorded.save(path).map_err(|e| e.to_string())?;
    }
    if let Some(fault) = &run.fault {
        return Err(fault.to_string());
    }
    out.line(&run.summary());
    let rgba = console.rgba();
    if let Some(path) = &args.screenshot {
        kairo::tools::screenshot::save_png(path, &rgba)
            .map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
    }
    if args.hash {
        out.line(&format!("hash {}", kairo::hash::frame_hash_hex(&rgba)));
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

fn profile(args: ProfileArgs) -> CmdResult {
    let options = kairo::tools::profile::command::ProfileOptions {
        cart: args.cart,
        vblanks: args.frames,
        input: args.input,
        svg: args.svg,
        json: args.json,
        trace: args.trace,
        max_load: args.max_load,
    };
    let mut out = Printer::stdout();
    let outcome = kairo::tools::profile::command::profile(&options, &mut |line| out.line(line))?;
    out.text(&outcome.report);
    out.finish()?;
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

fn check(args: CheckArgs) -> CmdResult {
    let report = kairo::tools::check::check_cart_report(&args.cart, args.frames);
    let mut out = Printer::stdout();
    if args.verbose {
        for note in &report.notes {
            out.line(&format!("note: {note}"));
        }
    }
    let problems = report.problems;
    if problems.is_empty() {
        out.line(&format!("{}: ok", args.cart.display()));
        out.finish()?;
        return Ok(ExitCode::SUCCESS);
    }
    for problem in &problems {
        out.line(problem);
    }
    out.finish()?;
    eprint_line(&format!(
        "kairo: {} problem(s) in {}",
        problems.len(),
        args.cart.display()
    ));
    Ok(ExitCode::FAILURE)
}

fn pack(args: PackArgs) -> CmdResult {
    if !args.dir.is_dir() {
        return Err(format!("{}: not a cart folder", args.dir.display()));
    }
    let files = CartFiles::open(&args.dir).map_err(|e| e.to_string())?;
    if let Err(problems) = kairo::tools::check::static_check(files.clone()) {
        let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
        return Err(format!(
            "not packing a cart with problems:\n{}",
            lines.join("\n")
        ));
    }
    let bytes = kairo::cart::kcart::pack(files.iter()).map_err(|e| e.to_string())?;
    kairo::fsutil::write_atomic(&args.output, &bytes)
        .map_err(|e| format!("{}: cannot write: {e}", args.output.display()))?;
    let mut out = Printer::stdout();
    out.line(&format!(
        "{}: {} files, {} bytes",
        args.output.display(),
        files.iter().count(),
        bytes.len()
    ));
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

fn pattern(args: PatternArgs) -> CmdResult {
    let cart = if args.looping {
        kairo::tools::preview::looping_pattern_cart(&args.file)?
    } else {
        kairo::tools::preview::pattern_cart(&args.file)?
    };
    if !args.headless {
        return pattern_window(args.file, args.looping);
    }
    let mut console = Console::new(cart).map_err(|e| e.to_string())?;
    let mut out = Printer::stdout();
    let run =
        kairo::tools::headless::run(&mut console, args.frames, None, &mut |line| out.line(line));
    if let Some(fault) = &run.fault {
        return Err(fault.to_string());
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
        kairo::tools::screenshot::save_png(path, &console.rgba())
            .map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(feature = "host")]
fn pattern_window(file: PathBuf, looping: bool) -> CmdResult {
    let options = kairo::host::WindowOptions {
        cart: None,
        scale: 3,
        fullscreen: false,
        profile: false,
        pattern: Some(file),
        pattern_loop: looping,
    };
    kairo::host::run(options)
        .map(|()| ExitCode::SUCCESS)
        .map_err(|e| e.to_string())
}

#[cfg(not(feature = "host"))]
fn pattern_window(_file: PathBuf, _looping: bool) -> CmdResult {
    Err("this build has no window (built without the `host` feature); use --headless".into())
}

fn bench(args: BenchArgs) -> CmdResult {
    let names: Vec<String> = if args.workloads.is_empty() {
        kairo::tools::bench::WORKLOADS
            .iter()
            .map(|s| s.to_string())
            .collect()
    } else {
        args.workloads
    };
    let mut out = Printer::stdout();
    for name in names {
        let figure = kairo::tools::bench::run_workload(&name, &args.carts)?;
        out.line(&figure.to_string());
        // Nobody reads the figures any more: the rest would only take time.
        if out.stopped() {
            break;
        }
    }
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
