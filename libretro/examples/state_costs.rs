//! What the core's states cost: size, `retro_serialize` time, a restore from memory (what
//! RetroArch's run-ahead and rewind do every frame) and a restore in a fresh session (a full
//! replay), after a short and a long session of each bundled cart. The long session plays
//! the cart's movie over and over (its input keeps changing as a player's would).
//!
//! `cargo run -p kairo-libretro --release --example state_costs` (docs/libretro.md quotes it).

use std::path::Path;
use std::time::Instant;

use kairo::movie::Movie;
use kairo::session::Route;
use kairo_libretro::core::Core;
use kairo_libretro::frontend::Frontend;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let frontend = Frontend::default();
    println!(
        "cart        minutes  state     padded    serialize  restore-mem  restore-fresh  snapshots"
    );
    for name in ["platformer", "shmup"] {
        let cart = root.join("carts").join(name);
        let text = std::fs::read_to_string(root.join(format!("tests/movies/{name}.kmv")))
            .expect("bundled movie");
        let movie = Movie::parse(&text, name).expect("movie");
        for minutes in [2, 30] {
            let vblanks = minutes * 60 * 60;
            let mut core = Core::load(&cart, &frontend).expect("cart loads");
            let input = |n: usize| movie.ticks[n % movie.ticks.len()];
            for n in 0..vblanks {
                core.run_with(input(n), &frontend);
            }
            let padded = core.state_size();
            let mut state = vec![0; padded];
            const REPEATS: u32 = 20;
            // Snapshots are kept from the first state on: take one and play 10 s more.
            core.serialize(&mut state).expect("serialize");
            for n in vblanks..vblanks + 600 {
                core.run_with(input(n), &frontend);
            }
            let vblanks = vblanks + 600;
            let padded = core.state_size();
            let mut state = vec![0; padded];
            let start = Instant::now();
            for _ in 0..REPEATS {
                core.state_size();
                core.serialize(&mut state).expect("serialize");
            }
            let serialize = start.elapsed() / REPEATS;
            // The state without its padding chunk (tag, length, zeros).
            let chunks = kairo::savestate::file::Chunks::decode(&state).expect("a state");
            let natural = padded - chunks.get("PADD").map_or(0, |zeros| zeros.len() + 8);
            let start = Instant::now();
            for k in 0..REPEATS as usize {
                core.run_with(input(vblanks + k), &frontend);
                core.run_with(input(vblanks + k + 1), &frontend);
                let route = core.unserialize(&state).expect("restore");
                assert_eq!(route, Route::Memory);
            }
            let along = start.elapsed() / REPEATS;
            let mut fresh = Core::load(&cart, &frontend).expect("cart loads");
            let start = Instant::now();
            fresh.unserialize(&state).expect("restore");
            let replay = start.elapsed();
            println!(
                "{name:<11} {minutes:>7}  {:>6} KB {:>6} KB {:>7.2} ms {:>9.2} ms {:>10.2} s  {:>5.1} MiB",
                natural / 1000,
                padded / 1000,
                serialize.as_secs_f64() * 1e3,
                along.as_secs_f64() * 1e3,
                replay.as_secs_f64(),
                core.snapshot_bytes() as f64 / (1024.0 * 1024.0)
            );
        }
    }
}
