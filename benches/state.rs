//! Criterion benchmarks of in-memory snapshots (what rewind uses): taking and restoring
//! the whole console — hardware and Lua heap — for both bundled carts mid-stage, along
//! their movies. The sizes, and the memory rewind takes for a minute of each cart's movie,
//! are printed once per cart.

use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use kairo::cart::Cart;
use kairo::console::{Console, ConsoleSnapshot};
use kairo::movie::Movie;
use kairo::rewind::Rewind;

/// The cart's console after `vblanks` vblanks of its bundled movie.
fn mid_stage(name: &str, vblanks: usize) -> Console {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cart = Cart::open(&root.join("carts").join(name)).expect("bundled cart");
    let movie = Movie::load(&root.join(format!("tests/movies/{name}.kmv"))).expect("movie");
    let mut console = Console::new(cart).expect("boots");
    for n in 0..vblanks {
        console.tick(movie.input(n)).expect("runs");
        console.take_log();
        console.take_audio();
    }
    console
}

/// The rewind buffer's memory once it holds its full minute of the cart's movie.
fn rewind_memory(name: &str, vblanks: usize) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cart = Cart::open(&root.join("carts").join(name)).expect("bundled cart");
    let movie = Movie::load(&root.join(format!("tests/movies/{name}.kmv"))).expect("movie");
    let mut console = Console::new(cart).expect("boots");
    let mut rewind = Rewind::default();
    for n in 0..vblanks {
        console.tick(movie.input(n)).expect("runs");
        console.take_log();
        console.take_audio();
        rewind.after_vblank(&console);
    }
    eprintln!(
        "{name}: rewind buffer after {vblanks} vblanks reaches {:.1} s in {:.1} MiB",
        rewind.seconds(console.vblanks()),
        rewind.bytes() as f64 / (1024.0 * 1024.0)
    );
}

fn snapshots(c: &mut Criterion) {
    rewind_memory("platformer", 3600);
    rewind_memory("shmup", 6000);
    for (name, vblanks) in [("platformer", 1800), ("shmup", 3600)] {
        let mut console = mid_stage(name, vblanks);
        let mut snapshot = ConsoleSnapshot::default();
        console.snapshot_into(&mut snapshot);
        eprintln!(
            "{name} at vblank {vblanks}: Lua heap {} KiB in use, snapshot {} KiB (heap extent {} KiB)",
            console.script_memory() / 1024,
            snapshot.bytes() / 1024,
            snapshot.heap().len() / 1024
        );
        c.bench_function(&format!("{name} snapshot"), |b| {
            b.iter(|| console.snapshot_into(&mut snapshot))
        });
        c.bench_function(&format!("{name} restore"), |b| {
            b.iter(|| console.restore(&snapshot).expect("restores"))
        });
    }
}

criterion_group!(benches, snapshots);
criterion_main!(benches);
