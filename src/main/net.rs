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
    /// Play in this room of the lobby server at --server (over WebRTC) instead of UDP.
    #[arg(
        long,
        value_name = "NAME",
        requires = "server",
        conflicts_with = "peer"
    )]
    pub room: Option<String>,
    /// The lobby server (`kairo lobby`) of --room: ws://HOST:PORT (wss:// behind TLS).
    #[arg(long, value_name = "URL", requires = "room")]
    pub server: Option<String>,
    /// Players in the room's match (2 to 4).
    #[arg(long, default_value_t = 2, requires = "room", value_parser = clap::value_parser!(u8).range(2..=4))]
    pub players: u8,
    /// The room's password: a peer without it is refused before any game data.
    #[arg(long, value_name = "TEXT", requires = "room")]
    pub password: Option<String>,
    /// Watch the room's match without playing.
    #[arg(long, requires = "room")]
    pub spectate: bool,
    #[command(flatten)]
    pub ice: IceArgs,
    /// Frames a local press waits before it counts (0 to 30).
    #[arg(long, default_value_t = 2)]
    pub delay: usize,
    /// Seconds to wait for every peer to answer (a host: for someone to join).
    #[arg(long, value_name = "S", default_value_t = 30)]
    pub timeout: u64,
    /// Window scale (integer).
    #[arg(long, default_value_t = 3)]
    pub scale: u32,
    /// Display filter for this run, over the one saved by F10 (docs/display.md).
    #[arg(long, value_name = "NAME", value_parser = super::filter_parser())]
    pub filter: Option<kairo::views::display_filter::DisplayFilter>,
}

/// The ICE servers a room's peer uses (docs/netplay.md, "NAT and TURN").
#[derive(Args, Debug)]
pub struct IceArgs {
    /// A STUN server, stun:HOST:PORT (repeatable), or `none` (only the machine's own
    /// addresses). Default: stun:stun.l.google.com:19302.
    #[arg(long, value_name = "URL")]
    pub stun: Vec<String>,
    /// A TURN server to relay through when no direct path exists, turn:HOST:PORT. None is
    /// contacted unless given.
    #[arg(long, value_name = "URL")]
    pub turn: Option<String>,
    /// The TURN server's user name.
    #[arg(long, value_name = "NAME", requires = "turn")]
    pub turn_user: Option<String>,
    /// The TURN server's password.
    #[arg(long, value_name = "TEXT", requires = "turn")]
    pub turn_password: Option<String>,
}

/// One peer of a netplay match, headless (docs/netplay.md).
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("net_link").args(["net_port", "net_room"])))]
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
    /// Play one peer of a match in this room of the lobby server at --net-server (over
    /// WebRTC), as --net-player, until frame --frames is confirmed by every peer.
    #[arg(
        long,
        value_name = "NAME",
        requires = "net_server",
        conflicts_with_all = ["input", "load_state", "save_state", "data", "gif", "wav", "dump_vram"]
    )]
    pub net_room: Option<String>,
    /// Ask for a rematch once this peer's game reaches frame N (for tests and bots): every
    /// player's cart powers on again, and --frames counts in the rematch.
    #[arg(long, value_name = "N", requires = "net_room")]
    pub net_rematch_at: Option<u64>,
    /// Watch the match in --net-room without playing (instead of --net-player): prints the
    /// same hash of frame --frames as the players.
    #[arg(long, requires = "net_room", conflicts_with_all = ["net_player", "press"])]
    pub spectate: bool,
    /// The lobby server of --net-room: ws://HOST:PORT.
    #[arg(long, value_name = "URL", requires = "net_room")]
    pub net_server: Option<String>,
    /// Players in the room's match (2 to 4, default 2).
    #[arg(long, value_name = "N", requires = "net_room", value_parser = clap::value_parser!(u8).range(2..=4))]
    pub net_players: Option<u8>,
    /// The room's password.
    #[arg(long, value_name = "TEXT", requires = "net_room")]
    pub net_password: Option<String>,
    /// A STUN server for --net-room (repeatable), or `none`; default stun:stun.l.google.com:19302.
    #[arg(long, value_name = "URL", requires = "net_room")]
    pub net_stun: Vec<String>,
    /// A TURN server for --net-room, turn:HOST:PORT, with --net-turn-user/--net-turn-password.
    #[arg(long, value_name = "URL", requires = "net_room")]
    pub net_turn: Option<String>,
    #[arg(long, value_name = "NAME", requires = "net_turn")]
    pub net_turn_user: Option<String>,
    #[arg(long, value_name = "TEXT", requires = "net_turn")]
    pub net_turn_password: Option<String>,
    /// This peer's player number, 1 to 4.
    #[arg(long, value_name = "N", requires = "net_link", value_parser = clap::value_parser!(u8).range(1..=4))]
    pub net_player: Option<u8>,
    /// Frames a local press waits before it counts (0 to 30, default 2).
    #[arg(long, value_name = "FRAMES", requires = "net_link")]
    pub net_delay: Option<usize>,
    /// Seconds to wait for every peer to answer (a host: for someone to join; default 30).
    #[arg(long, value_name = "S", requires = "net_link")]
    pub net_timeout: Option<u64>,
}

/// `kairo lobby`: the lobby server rooms meet on.
#[derive(Args, Debug)]
pub struct LobbyArgs {
    /// The TCP port to listen on (0: any free port, printed).
    #[arg(long, default_value_t = 3536)]
    pub port: u16,
    /// The address to listen on (0.0.0.0: every interface).
    #[arg(long, value_name = "ADDR", default_value = "0.0.0.0")]
    pub bind: std::net::IpAddr,
}

/// Runs the lobby server until stopped.
#[cfg(feature = "netplay")]
pub fn lobby(args: LobbyArgs) -> CmdResult {
    kairo::rooms::lobby::serve(args.bind, args.port, true, |addr| {
        kairo::out::print_line(&format!(
            "lobby: listening on ws://{addr} (rooms are ws://HOST:{}/ROOM)",
            addr.port()
        ));
    })
    .map_err(ToolError::Net)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(not(feature = "netplay"))]
pub fn lobby(_args: LobbyArgs) -> CmdResult {
    Err(CliError::NoWindow("and no netplay (feature `netplay`)"))
}

/// The options of a match in a room.
#[cfg(feature = "netplay")]
fn room_match(
    server: &str,
    room: &str,
    password: Option<String>,
    ice: kairo::rooms::IceServers,
    players: u8,
    player: usize,
) -> Result<kairo::netplay::play::NetOptions, ToolError> {
    let room = kairo::rooms::room_options(server, room, password, ice)?;
    Ok(kairo::netplay::play::NetOptions::in_room(
        room,
        usize::from(players),
        player,
    ))
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
    let mut net = match (&args.room, peers.is_empty(), player) {
        (Some(room), ..) => {
            let ice = kairo::rooms::IceServers::from_args(
                &args.ice.stun,
                args.ice.turn.as_deref(),
                args.ice.turn_user.as_deref(),
                args.ice.turn_password.as_deref(),
            )
            .map_err(ToolError::Net)?;
            let server = args.server.as_deref().unwrap_or_default();
            let mut net = room_match(
                server,
                room,
                args.password.clone(),
                ice,
                args.players,
                player,
            )?;
            if let Some(room) = &mut net.room {
                room.watch = args.spectate;
            }
            net
        }
        (None, true, 0) => NetOptions::host(args.port),
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
        filter: args.filter,
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

/// `kairo headless CART --net-port P ...` or `--net-room NAME ...`: one peer of a match.
#[cfg(feature = "netplay")]
pub fn headless_net(args: &HeadlessArgs) -> ToolResult {
    use kairo::netplay::play::NetOptions;
    let net = &args.net;
    let peers = net
        .net_peer
        .iter()
        .map(|p| peer_address(p))
        .collect::<Result<Vec<_>, _>>()?;
    let player = usize::from(net.net_player.unwrap_or(1)) - 1;
    let mut options = match (&net.net_room, net.net_port, peers.is_empty(), player) {
        (Some(room), ..) => {
            let ice = kairo::rooms::IceServers::from_args(
                &net.net_stun,
                net.net_turn.as_deref(),
                net.net_turn_user.as_deref(),
                net.net_turn_password.as_deref(),
            )?;
            let server = net.net_server.as_deref().unwrap_or_default();
            let players = net.net_players.unwrap_or(2);
            room_match(server, room, net.net_password.clone(), ice, players, player)?
        }
        (None, Some(port), true, 0) => NetOptions::host(port),
        (None, port, ..) => NetOptions::new(port.unwrap_or(0), peers, player),
    };
    if let Some(delay) = args.net.net_delay {
        options.input_delay = delay;
    }
    if let Some(seconds) = args.net.net_timeout {
        options.greet_timeout = std::time::Duration::from_secs(seconds);
    }
    options.check().map_err(ToolError::Net)?;
    if net.net_room.is_some() && !net.spectate && net.net_player.is_none() {
        return Err(ToolError::Net(NetError::Setup(
            "--net-room needs --net-player N (or --spectate to watch)".into(),
        )));
    }
    if net.spectate {
        return headless_watch(args, options);
    }
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
    let run = if options.room.is_some() {
        kairo::commands::netplay::play_room(
            &mut session,
            options,
            args.frames,
            press.as_ref(),
            net.net_rematch_at,
            &mut |line| out.line(line),
        )?
    } else {
        kairo::commands::netplay::play(
            &mut session,
            options,
            args.frames,
            press.as_ref(),
            &mut |line| out.line(line),
        )?
    };
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

/// `kairo headless CART --net-room NAME --spectate --frames F`: watches a room's match.
#[cfg(feature = "netplay")]
fn headless_watch(args: &HeadlessArgs, options: kairo::netplay::play::NetOptions) -> ToolResult {
    let cart = Cart::open(&args.cart)?;
    for warning in &cart.warnings {
        eprint_line(&format!("kairo: warning: {warning}"));
    }
    let mut session = Session::start(cart, kairo::saveram::SaveRam::default())?;
    let mut out = Printer::stdout();
    let run = kairo::commands::netplay::watch(&mut session, options, args.frames, &mut |line| {
        out.line(line)
    })?;
    if let Some(path) = &args.record {
        run.movie.save(path)?;
    }
    out.line(&run.summary());
    if let Some(path) = &args.screenshot {
        kairo::views::screenshot::save_png(path, &run.picture).map_err(ToolError::write(path))?;
    }
    if args.hash {
        out.line(&format!("hash {}", run.hash));
    }
    out.finish().map_err(ToolError::Stdout)?;
    Ok(ExitCode::SUCCESS)
}
