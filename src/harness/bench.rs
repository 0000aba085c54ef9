//! Headless throughput workloads for `kairo bench` and `cargo bench`. Each reports a median
//! of several timed runs as one plain integer.
//!
//! `video-stress` is the side-by-side workload of `shared/bench/README.md`: 4 layers of 8x8
//! tiles covering the screen, each scrolled differently every frame, 256 sprites of 16x16
//! moving every frame (some partly off-screen), then the indexed picture turned into RGBA.

use std::path::Path;
use std::time::Instant;

use crate::cart::Cart;
use crate::console::Console;
use crate::error::{Result, ToolError};
pub use crate::video::stress::VideoStress;

/// Timed runs per workload; the median is reported.
pub const RUNS: usize = 5;
/// Frames per timed run.
pub const FRAMES: usize = 600;

/// One line of `kairo bench` output.
pub struct Figure {
    pub name: String,
    pub value: u64,
    pub unit: &'static str,
}

impl std::fmt::Display for Figure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {} {}", self.name, self.value, self.unit)
    }
}

/// The workloads every build knows.
const MACHINE_WORKLOADS: &[&str] = &[
    "video-stress",
    "bullets",
    "collision",
    "hitboxes",
    "audio",
    "platformer",
    "drawing",
    "calibration",
];

/// The workloads of netplay, in builds with it.
const NETPLAY_WORKLOADS: &[&str] = &["rollback", "netplay", "rooms"];

/// The workloads `kairo bench` knows in this build.
pub fn workloads() -> Vec<&'static str> {
    let mut names = MACHINE_WORKLOADS.to_vec();
    if cfg!(feature = "netplay") {
        names.extend_from_slice(NETPLAY_WORKLOADS);
    }
    names
}

/// Runs workload `name`; `carts` is the folder holding the bundled carts.
pub fn run_workload(name: &str, carts: &Path) -> Result<Figure> {
    match name {
        "video-stress" => Ok(Figure {
            name: name.into(),
            value: video_stress_fps(),
            unit: "frames/s",
        }),
        "bullets" => Ok(Figure {
            name: name.into(),
            value: bullets_per_ms(),
            unit: "bullets/ms",
        }),
        "audio" => Ok(Figure {
            name: name.into(),
            value: audio_vblanks_per_second(),
            unit: "vblanks/s",
        }),
        "collision" => Ok(Figure {
            name: name.into(),
            value: collision_moves_per_second(),
            unit: "moves/s",
        }),
        "hitboxes" => Ok(Figure {
            name: name.into(),
            value: hitbox_frames_per_second(),
            unit: "frames/s",
        }),
        "calibration" => {
            let cases: Vec<super::calibrate::Case> = super::calibrate::CASES
                .iter()
                .chain(super::calibrate::API_CASES)
                .cloned()
                .collect();
            let calibration = super::calibrate::calibrate(&cases, &mut |_| {});
            // The table goes to standard error: standard output keeps one line per workload.
            crate::out::eprint_line(calibration.table().trim_end());
            let worst = calibration.worst().map_or(0.0, |m| m.ratio);
            Ok(Figure {
                name: name.into(),
                value: (worst * 100.0).round() as u64,
                unit: "percent-of-plain-lua",
            })
        }
        "drawing" => {
            let (fps, ns_per_cycle) = drawing_fps()?;
            crate::out::eprint_line(&format!(
                "drawing: 1000 circfill of radius 8 a frame, {ns_per_cycle:.2} ns of host time \
                 per charged cycle"
            ));
            Ok(Figure {
                name: name.into(),
                value: fps,
                unit: "frames/s",
            })
        }
        #[cfg(feature = "netplay")]
        "rollback" => Ok(Figure {
            name: name.into(),
            value: rollback_fps(carts)?,
            unit: "frames/s",
        }),
        #[cfg(feature = "netplay")]
        "netplay" => Ok(Figure {
            name: name.into(),
            value: netplay_fps(carts)?,
            unit: "frames/s",
        }),
        #[cfg(feature = "netplay")]
        "rooms" => Ok(Figure {
            name: name.into(),
            value: rooms_fps(carts)?,
            unit: "frames/s",
        }),
        "platformer" => Ok(Figure {
            name: name.into(),
            value: cart_fps(&carts.join("platformer"))?,
            unit: "frames/s",
        }),
        other => Err(ToolError::UnknownWorkload {
            name: other.to_string(),
            known: workloads().join(", "),
        }),
    }
}

fn median(mut runs: Vec<f64>) -> u64 {
    runs.sort_by(f64::total_cmp);
    runs[runs.len() / 2].round() as u64
}

/// Frames per second of the video stress workload (median of [`RUNS`]).
pub(crate) fn video_stress_fps() -> u64 {
    let mut stress = VideoStress::new();
    let runs = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            for f in 0..FRAMES as i32 {
                stress.frame(f);
            }
            FRAMES as f64 / start.elapsed().as_secs_f64()
        })
        .collect();
    median(runs)
}

/// Machine frames per second of a cart run headless (median of [`RUNS`]), played from its
/// demo movie `tests/movies/<cart>.kmv` beside the carts folder when there is one, so the
/// figure measures the game being played rather than its title screen.
pub(crate) fn cart_fps(path: &Path) -> Result<u64> {
    let cart = Cart::open(path)?;
    let movie = path
        .file_name()
        .and_then(|name| {
            let root = path.parent()?.parent()?;
            let file = root.join("tests/movies").join(name).with_extension("kmv");
            crate::movie::Movie::load(&file).ok()
        })
        .unwrap_or_default();
    let mut runs = Vec::new();
    for _ in 0..RUNS {
        let mut console = Console::new(cart.clone())?;
        let start = Instant::now();
        for n in 0..FRAMES {
            console.run_frame(movie.input(n))?;
            console.take_log();
        }
        runs.push(FRAMES as f64 / start.elapsed().as_secs_f64());
    }
    Ok(median(runs))
}

/// The drawing workload's cart: 1000 `circfill` of radius 8 a frame, spread over the screen
/// and moving.
pub const DRAWING_CART: &str = "
t = 0
function draw()
  t = t + 1
  for i = 1, 1000 do
    circfill((i * 37 + t) % 272 - 8, (i * 91 + t * 2) % 272 - 8, 8, i % 256)
  end
end
";

/// Machine frames per second of [`DRAWING_CART`] (median of [`RUNS`]), and the host time
/// per charged cycle of the median run, in ns.
pub(crate) fn drawing_fps() -> Result<(u64, f64)> {
    let mut files = std::collections::BTreeMap::new();
    files.insert("cart.toml".to_string(), b"name = 'drawing'\n".to_vec());
    files.insert("main.lua".to_string(), DRAWING_CART.as_bytes().to_vec());
    let cart = Cart::from_files(crate::cart::files::CartFiles::from_map("drawing", files))?;
    let mut runs = Vec::new();
    for _ in 0..RUNS {
        let mut console = Console::new(cart.clone())?;
        let mut cycles = 0;
        let start = Instant::now();
        for _ in 0..FRAMES {
            cycles += console.run_frame(crate::input::InputFrame::NONE)?.total();
        }
        let seconds = start.elapsed().as_secs_f64();
        runs.push((
            FRAMES as f64 / seconds,
            seconds * 1e9 / cycles.max(1) as f64,
        ));
    }
    runs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (fps, ns) = runs[runs.len() / 2];
    Ok((fps.round() as u64, ns))
}

/// A mixed terrain for the collision workload: flat runs, every slope, ladders, one-way
/// floors, ice and steps, 64 x 16 cells.
pub fn collision_course() -> crate::collide::map::CollisionMap {
    use crate::collide::tile::Tile;
    let slope = |l, r| Tile::Slope { left: l, right: r };
    let key = [
        ('1', slope(0, 4)),
        ('2', slope(4, 8)),
        ('3', slope(8, 12)),
        ('4', slope(12, 16)),
        ('5', slope(16, 12)),
        ('6', slope(12, 8)),
        ('7', slope(8, 4)),
        ('8', slope(4, 0)),
        ('/', slope(0, 16)),
        ('\\', slope(16, 0)),
        ('a', slope(0, 8)),
        ('b', slope(8, 16)),
        ('c', slope(16, 8)),
        ('d', slope(8, 0)),
    ];
    crate::collide::map::CollisionMap::from_ascii(
        &[
            "................................................................",
            "................................................................",
            "..........====..............H.............====..................",
            "............................H...................................",
            ".......................====.H...................................",
            "............................H..........##.......................",
            "..................../##\\...H.........####......................",
            ".............ab#########cd..H........######.....................",
            "......1234###################5678...########....IIIIIII.........",
            "################################################################",
            "################################################################",
        ],
        &key,
    )
}

/// `move_body` calls per second: 64 bodies walking and jumping over [`collision_course`]
/// (median of [`RUNS`] runs of 600 frames).
pub(crate) fn collision_moves_per_second() -> u64 {
    use crate::collide::mover::{Body, Mode, MoveOptions, flag, move_body};
    use crate::fixed::{FX_ONE, fx};
    let map = collision_course();
    let runs = (0..RUNS)
        .map(|_| {
            let mut bodies: Vec<(Body, Mode)> = (0..64)
                .map(|i| {
                    let body = Body {
                        x: fx(16 + i * 15),
                        y: fx(100),
                        w: 10,
                        h: 20,
                        vx: 0,
                        vy: 0,
                    };
                    (body, Mode::Air)
                })
                .collect();
            let start = Instant::now();
            let mut moves = 0u64;
            for frame in 0..FRAMES as i32 {
                for (i, (body, mode)) in bodies.iter_mut().enumerate() {
                    let direction = if (frame / 200 + i as i32) % 2 == 0 {
                        1
                    } else {
                        -1
                    };
                    body.vx = direction * (FX_ONE + (i as i32 % 3) * FX_ONE / 2);
                    body.vy = if *mode == Mode::Ground && (frame + i as i32) % 90 == 0 {
                        -fx(5)
                    } else {
                        (body.vy + FX_ONE / 4).min(fx(6))
                    };
                    let options = MoveOptions {
                        mode: *mode,
                        ..MoveOptions::default()
                    };
                    let moved = move_body(&map, body, &options);
                    *mode = if moved.flags & flag::GROUND != 0 {
                        Mode::Ground
                    } else {
                        Mode::Air
                    };
                    if moved.flags & flag::GROUND != 0 {
                        body.vy = FX_ONE / 4;
                    }
                    moves += 1;
                }
            }
            moves as f64 / start.elapsed().as_secs_f64()
        })
        .collect();
    median(runs)
}

/// Frames per second of finding the pairs among 512 moving hitboxes in 4 groups that all
/// test each other (median of [`RUNS`] runs of 600 frames).
pub(crate) fn hitbox_frames_per_second() -> u64 {
    use crate::collide::hitbox::{Hitbox, Hitboxes};
    let mut list = Hitboxes::default();
    let runs = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            let mut found = 0;
            for frame in 0..FRAMES as i64 {
                list.clear();
                for i in 0..512i64 {
                    let x = (i * 37 + frame * (1 + i % 3)) % 300 - 20;
                    let y = (i * 91 + frame * (i % 2)) % 300 - 20;
                    let b = Hitbox::new(i, i % 4, 0b1111, x, y, 12, 12).expect("valid box");
                    list.add(b).expect("room");
                }
                found += list.pairs().pairs.len();
            }
            std::hint::black_box(found);
            FRAMES as f64 / start.elapsed().as_secs_f64()
        })
        .collect();
    median(runs)
}

/// A full bullet table (4096) spread over the screen, drifting slowly, with the player in the
/// middle: the unit's per-frame work (move, cull, hit and graze tests against the player).
pub fn bullet_field() -> crate::bullets::BulletUnit {
    use crate::bullets::unit::{CAPACITY, Player, bullet};
    use crate::fixed::{FX_ONE, fx};
    let mut unit = crate::bullets::BulletUnit::default();
    unit.set_player(Some(Player {
        x: fx(128),
        y: fx(128),
        hit_w: FX_ONE,
        hit_h: FX_ONE,
        graze_w: fx(12),
        graze_h: fx(12),
    }))
    .expect("a player box the unit takes");
    let mut seed = 0x2545_F491_u32;
    for i in 0..CAPACITY as i32 {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        let (x, y) = ((seed % 256) as i32, ((seed >> 8) % 256) as i32);
        // Keep clear of the player so the field stays full.
        let y = if (x - 128).abs() < 20 && (y - 128).abs() < 20 {
            y / 4
        } else {
            y
        };
        unit.spawn(bullet(
            fx(x),
            fx(y),
            (i * 97 % 65536) as u16,
            FX_ONE / 64,
            (i % 4) as u8,
        ));
    }
    unit
}

/// Bullets updated, culled and hit-tested against the player per millisecond (median of
/// [`RUNS`] runs of 600 frames over a full table).
pub(crate) fn bullets_per_ms() -> u64 {
    let runs = (0..RUNS)
        .map(|_| {
            let mut unit = bullet_field();
            let start = Instant::now();
            let mut processed = 0u64;
            for _ in 0..FRAMES {
                processed += unit.table().len() as u64;
                unit.advance();
            }
            processed as f64 / (start.elapsed().as_secs_f64() * 1000.0)
        })
        .collect();
    median(runs)
}

/// Vblanks of 8 busy channels mixed per second (median of [`RUNS`] runs of 600).
pub(crate) fn audio_vblanks_per_second() -> u64 {
    let mut out = vec![0.0; crate::audio::SAMPLES_PER_VBLANK];
    let runs = (0..RUNS)
        .map(|_| {
            let (mut unit, library) = crate::audio::busy::busy_audio();
            let start = Instant::now();
            for _ in 0..FRAMES {
                unit.render_vblank(&library, &mut out);
            }
            FRAMES as f64 / start.elapsed().as_secs_f64()
        })
        .collect();
    median(runs)
}

/// The bundled cart `name` and a movie for two players: its own movie for player 1, and
/// player 2 pressing now and then (the platformer's second hero joins).
#[cfg(feature = "netplay")]
fn two_player_run(carts: &Path, name: &str) -> Result<(Cart, crate::movie::Movie)> {
    let cart = Cart::open(&carts.join(name))?;
    let path = carts
        .join("..")
        .join("tests/movies")
        .join(format!("{name}.kmv"));
    let mut movie = crate::movie::Movie::load(&path)?;
    let p2 = crate::movie::Movie::from_press(&[
        Some("-*200,start*2,-*30,right*60,a*8,right*80,left*30,right+a*40,-*60,left*90"),
        None,
        None,
        None,
    ])
    .map_err(ToolError::Press)?;
    for (n, tick) in movie.ticks.iter_mut().enumerate() {
        tick.0[1] = p2.input(n % p2.ticks.len()).0[0];
    }
    Ok((cart, movie))
}

/// `rollback`: both bundled carts under GGRS's sync test going back 7 frames every frame
/// (8 frames simulated, 8 snapshots and a restore per frame: the worst a match with 8
/// frames of rollback asks), along their movies with a second player. Frames a second of
/// the slower cart; each cart's figures go to standard error.
#[cfg(feature = "netplay")]
pub(crate) fn rollback_fps(carts: &Path) -> Result<u64> {
    let mut slowest = f64::MAX;
    for name in ["platformer", "shmup"] {
        let (cart, movie) = two_player_run(carts, name)?;
        let mut game = crate::session::Session::start(cart, crate::saveram::SaveRam::default())?;
        let start = Instant::now();
        let stats = crate::netplay::synctest::run(&mut game, &movie, FRAMES, 2, 7)
            .map_err(|e| ToolError::Net(crate::netplay::NetError::Setup(format!("{name}: {e}"))))?;
        let fps = FRAMES as f64 / start.elapsed().as_secs_f64();
        crate::out::eprint_line(&format!(
            "rollback {name}: {fps:.0} frames/s going back 7 frames every frame, {:.1} us per \
             frame played again, worst frame {:.2} ms",
            stats.resimulating.as_secs_f64() * 1e6 / stats.resimulated.max(1) as f64,
            stats.worst_step.as_secs_f64() * 1e3
        ));
        slowest = slowest.min(fps);
    }
    Ok(slowest.round() as u64)
}

/// `rooms`: the matches of `netplay` at 40 and 100 ms, in a room of a lobby server in this
/// process over WebRTC (each peer's messages held back the same delay), next to the UDP
/// mode's: the time from setting out to the first frame, frames played again per second and
/// bytes per second each way, to standard error. Frames a second of the slowest room peer.
#[cfg(feature = "netplay")]
pub(crate) fn rooms_fps(carts: &Path) -> Result<u64> {
    let net = |e: crate::netplay::NetError| ToolError::Net(e);
    let server = super::netplay::lobby_in_process().map_err(net)?;
    let mut slowest = f64::MAX;
    for name in ["platformer", "shmup"] {
        let (_, movie) = two_player_run(carts, name)?;
        let mut second = movie.clone();
        for tick in &mut second.ticks {
            tick.0[0] = tick.0[1];
        }
        for delay_ms in [40, 100] {
            let delay = std::time::Duration::from_millis(delay_ms);
            let press = [movie.clone(), second.clone()];
            let udp =
                super::netplay::bench_match(&carts.join(name), delay, FRAMES as u64, press.clone())
                    .map_err(net)?;
            let room = super::netplay::bench_room_match(
                &server,
                &carts.join(name),
                delay,
                FRAMES as u64,
                press,
            )
            .map_err(net)?;
            for (transport, figures) in [("udp", &udp), ("room", &room)] {
                for peer in 0..2 {
                    let stats = &figures.stats[peer];
                    let seconds = FRAMES as f64 / figures.fps[peer];
                    crate::out::eprint_line(&format!(
                        "rooms {name} {delay_ms} ms {transport:<4} peer {}: met in {:.2} s, {:.1} frames/s, \
                         {:.1} frames played again a second, {:.0} bytes/s sent, {:.0} received",
                        peer + 1,
                        figures.met_in[peer].as_secs_f64(),
                        figures.fps[peer],
                        stats.resimulated as f64 / seconds,
                        figures.sent_per_second[peer],
                        figures.received_per_second[peer],
                    ));
                }
            }
            slowest = slowest.min(room.fps[0]).min(room.fps[1]);
        }
    }
    Ok(slowest.round() as u64)
}

/// `netplay`: real-time matches between two peers in this process over loopback, through a
/// relay delaying every datagram 40, 100, 200 and 300 ms (one way), on both bundled carts.
/// Frames a second of the slowest peer up to 200 ms; each match's figures go to standard
/// error.
#[cfg(feature = "netplay")]
pub(crate) fn netplay_fps(carts: &Path) -> Result<u64> {
    let mut slowest = f64::MAX;
    for name in ["platformer", "shmup"] {
        let (_, movie) = two_player_run(carts, name)?;
        let mut second = movie.clone();
        for tick in &mut second.ticks {
            tick.0[0] = tick.0[1];
        }
        for delay_ms in [40, 100, 200, 300] {
            let figures = super::netplay::bench_match(
                &carts.join(name),
                std::time::Duration::from_millis(delay_ms),
                FRAMES as u64,
                [movie.clone(), second.clone()],
            )
            .map_err(|e| ToolError::Net(crate::netplay::NetError::Setup(format!("{name}: {e}"))))?;
            for peer in 0..2 {
                let (fps, stats) = (figures.fps[peer], &figures.stats[peer]);
                crate::out::eprint_line(&format!(
                    "netplay {name} {delay_ms} ms: peer {} {fps:.1} frames/s, {} rollbacks, \
                     {} frames played again (longest {}), {:.1} us each, worst frame {:.2} ms, \
                     {:.0} bytes/s sent",
                    peer + 1,
                    stats.rollbacks,
                    stats.resimulated,
                    stats.longest,
                    stats.resimulating.as_secs_f64() * 1e6 / stats.resimulated.max(1) as f64,
                    stats.worst_step.as_secs_f64() * 1e3,
                    figures.sent_per_second[peer],
                ));
                // Past the round trip the rollback window covers, the game slows by design
                // (docs/netplay.md): the figure is what the window promises.
                if delay_ms <= 200 {
                    slowest = slowest.min(fps);
                }
            }
        }
    }
    Ok(slowest.round() as u64)
}
