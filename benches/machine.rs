//! Criterion benchmarks of the machine: the video stress frame (4 layers + 256 sprites +
//! RGBA, the side-by-side workload) and a frame of the bundled platformer.

use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use kairo::bench::VideoStress;
use kairo::cart::Cart;
use kairo::console::Console;
use kairo::input::InputFrame;

fn video_stress(c: &mut Criterion) {
    let mut stress = VideoStress::new();
    let mut f = 0;
    c.bench_function("video-stress frame", |b| {
        b.iter(|| {
            stress.frame(f);
            f += 1;
        })
    });
}

fn platformer(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("carts/platformer");
    let cart = Cart::open(&path).expect("bundled cart");
    let mut console = Console::new(cart).expect("boots");
    c.bench_function("platformer frame", |b| {
        b.iter(|| {
            console.run_frame(InputFrame::NONE).expect("runs");
            console.take_log();
        })
    });
}

criterion_group!(benches, video_stress, platformer);
criterion_main!(benches);
