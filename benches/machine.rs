//! Criterion benchmarks of the machine: the video stress frame (4 layers + 256 sprites +
//! RGBA, the side-by-side workload), a frame of the bundled platformer, `move_body` and the
//! hitbox pairs of 512 boxes, the bullet unit's frame over a full table, and mixing 8 busy audio channels.

use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use kairo::cart::Cart;
use kairo::console::Console;
use kairo::harness::bench::VideoStress;
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

fn collision(c: &mut Criterion) {
    use kairo::collide::mover::{Body, MoveOptions, move_body};
    use kairo::fixed::{FX_ONE, fx};
    let map = kairo::harness::bench::collision_course();
    let mut body = Body {
        x: fx(20),
        y: fx(100),
        w: 10,
        h: 20,
        vx: 0,
        vy: 0,
    };
    let mut direction = 1;
    c.bench_function("move_body walking", |b| {
        b.iter(|| {
            if body.x > fx(60 * 16) || body.x < fx(16) {
                direction = -direction;
            }
            body.vx = direction * 3 * FX_ONE / 2;
            body.vy = FX_ONE / 4;
            move_body(&map, &mut body, &MoveOptions::default())
        })
    });
}

fn hitboxes(c: &mut Criterion) {
    use kairo::collide::hitbox::{Hitbox, Hitboxes};
    let mut list = Hitboxes::default();
    for i in 0..512i64 {
        list.add(Hitbox::new(i, i % 4, 0b1111, (i * 37) % 300, (i * 91) % 300, 12, 12).unwrap())
            .unwrap();
    }
    c.bench_function("hitbox pairs, 512 boxes", |b| b.iter(|| list.pairs()));
}

fn bullets(c: &mut Criterion) {
    let mut unit = kairo::harness::bench::bullet_field();
    c.bench_function("bullet unit frame, full table", |b| {
        b.iter(|| {
            if unit.table().len() < 4000 {
                unit = kairo::harness::bench::bullet_field();
            }
            unit.advance()
        })
    });
}

criterion_group!(
    benches,
    video_stress,
    platformer,
    collision,
    hitboxes,
    bullets
);
criterion_main!(benches);
