//! The command line's netplay: `kairo netplay` (the window) and `kairo headless --net-*` (one
//! peer with no window), and the peer addresses both take (docs/netplay.md).

use std::path::PathBuf;

use clap::Args;

#[cfg(not(feature = "host"))]
use super::CliError;
use super::CmdResult;
#[cfg(feature = "netplay")]
use {
    super::{HeadlessArgs, ToolResult},
    kairo::cart::Cart,
    kairo::error::ToolError,
    kairo::movie::Movie,
    kairo::netplay::NetError,
    kairo::out::{Printer, eprint_line},
    kairo::session::Session,
    std::process::ExitCode,
};

#[derive(Args)]
pub struct NetplayArgs {
    /// Cart folder or .kcart.
    pub cart: PathBuf,
    /// The local UDP port.
    #[arg(long, default_value_t = 7000)]
    pub port: u16,
    /// Another peer's address, HOST:PORT (once per other player, in player order). Without
    /// it, player 1 hosts a match of two: it starts when someone joins.
    #[arg(long, value_name = "HOST:PORT")]
    pub peer: Vec<String>,
    /// This peer's player number, 1 to 4.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=4))]
    pub player: u8,
    /// Frames a local press waits before it counts (0 to 30).
    #[arg(long, default_value_t = 2)]
    pub delay: usize,
    /// Seconds to wait for every peer to answer (a host: for someone to join).
    #[arg(long, value_name = "S", default_value_t = 30)]
    pub timeout: u64,
    /// Window scale (integer).
    #[arg(long, default_value_t = 3)]
    pub scale: u32,
}

/// One peer of a netplay match, headless (docs/netplay.md).
#[derive(Args, Debug)]
pub struct NetArgs {
    /// Play one peer of a netplay match, receiving on this UDP port (with --net-peer and
    /// --net-player), until frame --frames is confirmed by every peer; --press is this
    /// peer's input, --record writes every player's confirmed input. Player 1 without
    /// --net-peer hosts a match of two for whoever joins.
    #[arg(
        long,
        value_name = "PORT",
        requires = "net_player",
        conflicts_with_all = ["input", "load_state", "save_state", "data", "gif", "wav", "dump_vram"]
    )]
    pub net_port: Option<u16>,
    /// Another peer's address (once per other player, in player order).
    #[arg(long, value_name = "HOST:PORT", requires = "net_port")]
    pub net_peer: Vec<String>,
    /// This peer's player number, 1 to 4.
    #[arg(long, value_name = "N", requires = "net_port", value_parser = clap::value_parser!(u8).range(1..=4))]
    pub net_player: Option<u8>,
    /// Frames a local press waits before it counts (0 to 30, default 2).
    #[arg(long, value_name = "FRAMES", requires = "net_port")]
    pub net_delay: Option<usize>,
    /// Seconds to wait for every peer to answer (a host: for someone to join; default 30).
    #[arg(long, value_name = "S", requires = "net_port")]
    pub net_timeout: Option<u64>,
}

#[cfg(feature = "host")]
pub fn netplay_window(args: NetplayArgs) -> CmdResult {
    use kairo::netplay::play::NetOptions;
    let peers = args
        .peer
        .iter()
        .map(|p| peer_address(p))
        .collect::<Result<Vec<_>, _>>()?;
    let player = usize::from(args.player) - 1;
    let mut net = match (peers.is_empty(), player) {
        (true, 0) => NetOptions::host(args.port),
        _ => NetOptions::new(args.port, peers, player),
    };
    net.input_delay = args.delay;
    net.greet_timeout = std::time::Duration::from_secs(args.timeout);
    net.check().map_err(kairo::error::ToolError::Net)?;
    let options = kairo::host::WindowOptions {
        cart: Some(args.cart),
        scale: args.scale,
        fullscreen: false,
        profile: false,
        pattern: None,
        preview: kairo::commands::preview::Preview::default(),
        netplay: Some(net),
    };
    kairo::host::run(options)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(not(feature = "host"))]
pub fn netplay_window(_args: NetplayArgs) -> CmdResult {
    Err(CliError::NoWindow("use `kairo headless --net-port`"))
}

/// The first IPv4 address `text` (`HOST:PORT`) names.
#[cfg(feature = "netplay")]
pub fn peer_address(text: &str) -> Result<std::net::SocketAddr, ToolError> {
    use std::net::ToSocketAddrs;
    let bad = |why: String| ToolError::Net(NetError::Setup(format!("--net-peer {text}: {why}")));
    let addrs = text
        .to_socket_addrs()
        .map_err(|e| bad(format!("not a HOST:PORT address ({e})")))?;
    addrs
        .into_iter()
        .find(std::net::SocketAddr::is_ipv4)
        .ok_or_else(|| bad("no IPv4 address".into()))
}

/// `kairo headless CART --net-port P ...`: one peer of a match.
#[cfg(feature = "netplay")]
pub fn headless_net(args: &HeadlessArgs, port: u16) -> ToolResult {
    use kairo::netplay::play::NetOptions;
    let peers = args
        .net
        .net_peer
        .iter()
        .map(|p| peer_address(p))
        .collect::<Result<Vec<_>, _>>()?;
    let player = usize::from(args.net.net_player.unwrap_or(1)) - 1;
    let mut options = match (peers.is_empty(), player) {
        (true, 0) => NetOptions::host(port),
        _ => NetOptions::new(port, peers, player),
    };
    if let Some(delay) = args.net.net_delay {
        options.input_delay = delay;
    }
    if let Some(seconds) = args.net.net_timeout {
        options.greet_timeout = std::time::Duration::from_secs(seconds);
    }
    options.check().map_err(ToolError::Net)?;
    let press = match &args.press {
        Some(script) => {
            Some(Movie::from_press(&[Some(script), None, None, None]).map_err(ToolError::Press)?)
        }
        None => None,
    };
    let cart = Cart::open(&args.cart)?;
    for warning in &cart.warnings {
        eprint_line(&format!("kairo: warning: {warning}"));
    }
    let mut session = Session::start(cart, kairo::saveram::SaveRam::default())?;
    let mut out = Printer::stdout();
    let run = kairo::commands::netplay::play(
        &mut session,
        options,
        args.frames,
        press.as_ref(),
        &mut |line| out.line(line),
    )?;
    if let Some(path) = &args.record {
        run.movie.save(path)?;
    }
    out.line(&run.summary(player));
    if let Some(path) = &args.screenshot {
        let shot = &run.picture;
        kairo::views::screenshot::save_png(path, shot).map_err(ToolError::write(path))?;
    }
    if args.hash {
        out.line(&format!("hash {}", run.hash));
    }
    out.finish().map_err(ToolError::Stdout)?;
    Ok(ExitCode::SUCCESS)
}
