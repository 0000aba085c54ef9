//! One peer of a match with no window (`kairo headless CART --net-port P --net-peer
//! HOST:PORT --net-player N --frames F`), for tests and bots: plays in real time (one frame
//! per 1/60 s) with this peer's input from a `--press` script, until frame F is confirmed by
//! every peer, then waits (at most [`LINGER`]) until the peers have all of this peer's
//! input too, so that they can finish as well.

use std::time::{Duration, Instant};

use crate::hash::frame_hash_hex;
use crate::movie::Movie;
use crate::netplay::NetError;
use crate::netplay::play::{NetMatch, NetOptions, Step};
use crate::netplay::rollback::RollbackStats;
use crate::netplay::socket::Traffic;
use crate::netplay::spectate::Watch;
use crate::netplay::stepped::{SteppedMatch, SteppedState};
use crate::session::Session;

/// The most a finished peer waits for the others to have its input.
pub const LINGER: Duration = Duration::from_secs(3);
/// One frame of real time.
const FRAME: Duration = Duration::from_nanos(16_666_667);

/// Sleeps until `next` plus one frame of real time, and makes that the next frame's time;
/// far behind (a slow host), it starts counting again from now.
fn wait_for_next_frame(next: &mut Instant) {
    *next += FRAME;
    let now = Instant::now();
    match next.checked_duration_since(now) {
        Some(wait) => std::thread::sleep(wait),
        None if now - *next > 4 * FRAME => *next = now,
        None => {}
    }
}

/// Every player's input of `game`'s first `frames` frames, as a movie from power-on.
fn first_frames(game: &Session, frames: u64) -> Movie {
    let history = game.history();
    Movie {
        ticks: history.ticks[..frames as usize].to_vec(),
        ..history.clone()
    }
}

/// The outcome of a match.
#[derive(Debug)]
pub struct NetRun {
    /// The hash of frame F's picture, as every peer saw it once its input was confirmed.
    pub hash: String,
    /// That picture, as RGBA.
    pub picture: Vec<u8>,
    /// Every player's confirmed input up to frame F, as a movie from power-on.
    pub movie: Movie,
    pub stats: RollbackStats,
    /// Real time from the first frame played to frame F confirmed.
    pub played: Duration,
    /// Real time from setting out to meet the peers to the first frame played.
    pub met_in: Duration,
    /// What went through the socket during the match.
    pub traffic: Traffic,
    /// How each other player (0-based) was reached at the end: through a relay (a room's
    /// TURN server) or directly; `None` when the link cannot tell (UDP is direct).
    pub routes: Vec<(usize, Option<bool>)>,
}

/// Plays a match on `game` (just powered on, with empty save RAM) until frame `frames` is
/// confirmed, pressing what `press` holds for player 1 as this peer's input (nothing when
/// `None`). Lines the cart logs go to `log` once their frame is confirmed, once each.
pub fn play(
    game: &mut Session,
    options: NetOptions,
    frames: u64,
    press: Option<&Movie>,
    log: &mut dyn FnMut(&str),
) -> Result<NetRun, NetError> {
    let target = match i32::try_from(frames) {
        Ok(0) => return Err(NetError::Setup("a match needs --frames 1 or more".into())),
        Ok(target) => target,
        Err(_) => {
            return Err(NetError::Setup(format!(
                "{frames} frames is too long a match"
            )));
        }
    };
    let setting_out = Instant::now();
    let mut net = NetMatch::connect(game, options)?;
    let mut start = None;
    let mut next = Instant::now();
    let mut picture = None;
    loop {
        let at = usize::try_from(net.current_frame()).unwrap_or(0);
        let input = press.map_or(0, |movie| movie.input(at).0[0]);
        let stepped = net.step(game, input, &mut |game, _| {
            // The last play of frame F is the confirmed one (the loop ends once it is).
            if game.console().vblanks() == frames {
                picture = Some(game.console().rgba());
            }
        })?;
        for line in &stepped.log {
            log(line);
        }
        if stepped.step == Step::Advanced {
            start.get_or_insert_with(Instant::now);
        }
        if net.confirmed_frame() >= target - 1 && net.current_frame() >= target {
            break;
        }
        wait_for_next_frame(&mut next);
    }
    let played = start.map_or(Duration::ZERO, |s| s.elapsed());
    let met_in = start.map_or(Duration::ZERO, |s| s.duration_since(setting_out));
    let routes = net.routes();
    let finished = Instant::now();
    net.end_for_watchers(&format!("the players stopped after frame {frames}"));
    // Spectators' streams are reliable: a moment for what is in flight to arrive.
    let watched = if net.watchers() > 0 {
        Duration::from_millis(500)
    } else {
        Duration::ZERO
    };
    while (!net.all_sent() || finished.elapsed() < watched) && finished.elapsed() < LINGER {
        if net.poll().is_err() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let movie = first_frames(game, frames);
    let picture = picture.expect("frame F was reached");
    Ok(NetRun {
        hash: frame_hash_hex(&picture),
        picture,
        movie,
        stats: net.stats(),
        played,
        met_in,
        traffic: net.traffic(),
        routes,
    })
}

/// Plays a match in a room (as [`play`] does), through the stepped driver: a player that
/// drops may come back (the match pauses for it), and with `rematch_at` this peer asks for a
/// rematch once its game reaches that frame (for tests and bots); frame `frames` is then
/// counted in the rematch.
pub fn play_room(
    game: &mut Session,
    options: NetOptions,
    frames: u64,
    press: Option<&Movie>,
    rematch_at: Option<u64>,
    log: &mut dyn FnMut(&str),
) -> Result<NetRun, NetError> {
    if frames == 0 {
        return Err(NetError::Setup("a match needs --frames 1 or more".into()));
    }
    let Some(room) = &options.room else {
        return Err(NetError::Setup("a room's match needs its room".into()));
    };
    let setting_out = Instant::now();
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let link = std::sync::Arc::from((room.connect)(&cancel)?);
    let mut net = SteppedMatch::with_options(game.cart(), link, options, false);
    net.hash_of_frame(frames);
    let mut rematched = rematch_at.is_none();
    let mut start = None;
    let mut next = Instant::now();
    while net.confirmed_hash().is_none() || !rematched {
        let at = game.console().vblanks() as usize;
        let input = press.map_or(0, |movie| movie.input(at).0[0]);
        let state = net.tick(game, input)?;
        for line in net.take_log() {
            log(&line);
        }
        for note in net.take_notes() {
            log(&format!("netplay: {note}"));
        }
        if state == SteppedState::Playing {
            start.get_or_insert_with(Instant::now);
            if let Some(frame) = rematch_at
                && !rematched
                && game.console().vblanks() >= frame
            {
                net.rematch();
                rematched = true;
            }
        }
        wait_for_next_frame(&mut next);
    }
    let played = start.map_or(Duration::ZERO, |s| s.elapsed());
    let met_in = start.map_or(Duration::ZERO, |s| s.duration_since(setting_out));
    let routes = net.routes();
    let finished = Instant::now();
    net.end_for_watchers(&format!("the players stopped after frame {frames}"));
    while (!net.all_sent() || finished.elapsed() < Duration::from_millis(500))
        && finished.elapsed() < LINGER
    {
        if net.poll().is_err() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let movie = first_frames(game, frames);
    let picture = net
        .confirmed_picture()
        .expect("the hash comes with its picture")
        .to_vec();
    Ok(NetRun {
        hash: net.confirmed_hash().expect("the loop ends with the hash"),
        picture,
        movie,
        stats: net.stats(),
        played,
        met_in,
        traffic: net.traffic(),
        routes,
    })
}

/// What a spectator saw.
#[derive(Debug)]
pub struct WatchRun {
    /// The hash of frame F's picture (the players' confirmed frame F).
    pub hash: String,
    pub picture: Vec<u8>,
    /// Every player's input up to frame F, as a movie from power-on.
    pub movie: Movie,
    /// The newest confirmed frame the players had when the stream began.
    pub joined_at: usize,
    /// Real time from the first frame received to frame F played.
    pub watched: Duration,
    /// Bytes of the stream received.
    pub received_bytes: u64,
}

/// Watches the match in the room of `options` on `game` (just powered on, with empty save
/// RAM) until frame `frames` is played; the cart's lines go to `log`.
pub fn watch(
    game: &mut Session,
    options: NetOptions,
    frames: u64,
    log: &mut dyn FnMut(&str),
) -> Result<WatchRun, NetError> {
    if frames == 0 {
        return Err(NetError::Setup("watching needs --frames 1 or more".into()));
    }
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let mut watch = Watch::connect(game.cart(), &options, &cancel)?;
    let joined_at = watch.received();
    let start = Instant::now();
    let mut next = Instant::now();
    while game.console().vblanks() < frames {
        let left = (frames - game.console().vblanks()) as usize;
        let step = watch.step(game, left.min(600));
        for vblank in &step.vblanks {
            for line in &vblank.log {
                log(line);
            }
        }
        if step.played == 0
            && let Some(reason) = watch.ended()
            && watch.received() <= game.console().vblanks() as usize
        {
            return Err(NetError::WatchEnded {
                frame: game.console().vblanks(),
                reason: reason.to_string(),
            });
        }
        wait_for_next_frame(&mut next);
    }
    let movie = first_frames(game, frames);
    let picture = game.console().rgba();
    Ok(WatchRun {
        hash: frame_hash_hex(&picture),
        picture,
        movie,
        joined_at,
        watched: start.elapsed(),
        received_bytes: watch.received_bytes(),
    })
}

impl WatchRun {
    /// A line on what was watched.
    pub fn summary(&self) -> String {
        format!(
            "netplay: spectator, {} frames watched in {:.1} s (the players had confirmed {} when it joined), {} bytes received",
            self.movie.ticks.len(),
            self.watched.as_secs_f64(),
            self.joined_at,
            self.received_bytes
        )
    }
}

impl NetRun {
    /// A few lines on the match, for player `player` (0-based).
    pub fn summary(&self, player: usize) -> String {
        let s = &self.stats;
        let per_frame = match s.resimulated {
            0 => 0.0,
            n => s.resimulating.as_secs_f64() * 1e6 / n as f64,
        };
        let t = &self.traffic;
        let seconds = self.played.as_secs_f64().max(1e-3);
        format!(
            "netplay: player {}, {} frames confirmed in {:.1} s (the peers met in {:.2} s)\n\
             rollback: {} rollbacks, {} frames played again (longest {}), {:.1} ms of host time \
             ({per_frame:.0} us a frame)\n\
             traffic: sent {} datagrams ({} bytes, {:.0} bytes/s), received {} ({} bytes, \
             {:.0} bytes/s), {} late greetings answered, {} datagrams dropped",
            player + 1,
            self.movie.ticks.len(),
            self.played.as_secs_f64(),
            self.met_in.as_secs_f64(),
            s.rollbacks,
            s.resimulated,
            s.longest,
            s.resimulating.as_secs_f64() * 1e3,
            t.sent,
            t.sent_bytes,
            t.sent_bytes as f64 / seconds,
            t.received,
            t.received_bytes,
            t.received_bytes as f64 / seconds,
            t.greetings_answered,
            t.dropped,
        ) + &self.route_line()
    }

    /// `\nroute: player 2 directly, ...` when the link told how the players were reached.
    fn route_line(&self) -> String {
        let known: Vec<String> = self
            .routes
            .iter()
            .filter_map(|&(player, relayed)| {
                relayed.map(|relayed| match relayed {
                    true => format!("player {} through a TURN relay", player + 1),
                    false => format!("player {} directly", player + 1),
                })
            })
            .collect();
        match known.is_empty() {
            true => String::new(),
            false => format!("\nroute: {}", known.join(", ")),
        }
    }
}
