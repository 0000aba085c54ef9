//! The bullet unit: aim, symmetry, tunnelling, grazes, spread bursts, capacity, costs.

use super::angle::fine_from_degrees;
use super::table::Spawn;
use super::unit::*;
use crate::fixed::{FX_ONE, Fx, fx};
use crate::rng::Rng;
use crate::spec::cost;

fn unit_with_player(px: i32, py: i32, hit: i32, graze: i32) -> BulletUnit {
    let mut unit = BulletUnit::default();
    unit.player = Some(Player {
        x: fx(px),
        y: fx(py),
        hit_w: fx(hit),
        hit_h: fx(hit),
        graze_w: fx(graze),
        graze_h: fx(graze),
    });
    unit.cull_margin = 1024;
    unit
}

fn step(unit: &mut BulletUnit) -> u64 {
    unit.release_pending();
    unit.advance()
}

#[test]
fn aimed_bullets_from_every_offset_within_256_px_hit_a_stationary_player() {
    // Player hit half size 1 and bullet hit half size 2: the bullet must pass within 3 px on
    // both axes at some frame. A bullet moves by exactly its velocity each frame, so its
    // position after k frames is origin + k * v: the frames nearest the closest approach are
    // checked directly, for every integer offset.
    let reach = i64::from(fx(3));
    let mut unit = unit_with_player(0, 0, 1, 0);
    let speed = fx(3);
    let mut misses = Vec::new();
    for dy in -256i64..=256 {
        for dx in -256i64..=256 {
            if dx == 0 && dy == 0 {
                continue;
            }
            let (x0, y0) = (-(dx << 16), -(dy << 16));
            let angle = unit.aim_from(x0 as Fx, y0 as Fx);
            let (vx, vy) = super::angle::velocity(angle, speed);
            let (vx, vy) = (i64::from(vx), i64::from(vy));
            // Frame of closest approach along the path, then its neighbours.
            let k = (-(x0 * vx + y0 * vy) as f64 / (vx * vx + vy * vy) as f64).round() as i64;
            let hit = (k - 2..=k + 2)
                .filter(|&k| k >= 1)
                .any(|k| (x0 + k * vx).abs() <= reach && (y0 + k * vy).abs() <= reach);
            if !hit {
                misses.push((dx, dy));
            }
        }
    }
    assert!(
        misses.is_empty(),
        "{} misses, e.g. {:?}",
        misses.len(),
        &misses[..misses.len().min(5)]
    );
    // And the unit itself reports the hit, for a sample of offsets.
    for (dx, dy) in [(0, 256), (256, 256), (-137, 11), (5, -250), (-256, -1)] {
        unit = unit_with_player(128, 128, 1, 0);
        let (x, y) = (fx(128 - dx), fx(128 - dy));
        let angle = unit.aim_from(x, y);
        unit.spawn(bullet(x, y, angle, speed, 0));
        let hit = (0..200).any(|_| {
            step(&mut unit);
            unit.events.iter().any(|e| matches!(e, Event::Hit { .. }))
        });
        assert!(hit, "({dx}, {dy})");
    }
}

#[test]
fn angles_a_and_128_minus_a_mirror_each_other() {
    for a in 0..=255u32 {
        let mut left = BulletUnit::default();
        let mut right = BulletUnit::default();
        left.cull_margin = 10_000;
        right.cull_margin = 10_000;
        let mirror = (128 + 256 - a) % 256;
        left.spawn(bullet(
            fx(128),
            fx(100),
            (a * 256) as u16,
            fx(2) + FX_ONE / 3,
            0,
        ));
        right.spawn(bullet(
            fx(128),
            fx(100),
            (mirror * 256) as u16,
            fx(2) + FX_ONE / 3,
            0,
        ));
        for _ in 0..100 {
            step(&mut left);
            step(&mut right);
        }
        assert_eq!(
            left.table.x[0] - fx(128),
            fx(128) - right.table.x[0],
            "angle {a}"
        );
        assert_eq!(left.table.y[0], right.table.y[0], "angle {a}");
    }
}

/// How far a reported shot hit may lie from the expected contact point, in pixels: the unit
/// works in 16.16 fixed point, so a few 1/65536 px of rounding, far below any real error.
const CONTACT_TOLERANCE: f64 = 1.0 / 1024.0;

fn px(value: Fx) -> f64 {
    f64::from(value) / f64::from(FX_ONE)
}

/// The shot hits of the last step: (target, x, y) in pixels.
fn shot_hits(unit: &BulletUnit) -> Vec<(i64, f64, f64)> {
    unit.events
        .iter()
        .filter_map(|e| match *e {
            Event::ShotHit { target, x, y, .. } => Some((target, px(x), px(y))),
            _ => None,
        })
        .collect()
}

#[test]
fn player_shots_never_pass_through_at_any_speed_up_to_the_cap() {
    // The shot's hit box is 3 px either side of its centre.
    let half = 3;
    for speed in [1, 3, 7, 8, 15, 16, 31, 64, 100, 200, SHOT_MAX_SPEED] {
        for target_speed in [0, 4, 12] {
            let mut unit = BulletUnit::default();
            unit.types[0].hit_w = fx(half);
            unit.types[0].hit_h = fx(half);
            unit.cull_margin = 2000;
            // A 4x4 enemy at x = 120 moving left, a shot moving right along its centre line.
            let mut enemy_x = fx(120);
            unit.shoot(Shot {
                x: fx(0),
                y: fx(50),
                vx: fx(speed),
                vy: 0,
                kind: 0,
            });
            let mut hit = None;
            for frame in 0..200 {
                enemy_x -= fx(target_speed);
                unit.add_target(Target {
                    id: 7,
                    x: enemy_x,
                    y: fx(48),
                    w: fx(4),
                    h: fx(4),
                    dx: -fx(target_speed),
                    dy: 0,
                });
                step(&mut unit);
                if let Some(&(7, x, y)) = shot_hits(&unit).first() {
                    hit = Some((frame, x, y));
                    break;
                }
            }
            let Some((frame, x, y)) = hit else {
                panic!(
                    "shot at {speed} px/frame against a target at {target_speed} px/frame passed \
                     through"
                );
            };
            // In continuous time t (frames), the shot's front edge is at speed * t + half and
            // the enemy's left edge at 120 - target_speed * t: they first touch at
            // t = (120 - half) / (speed + target_speed), with the shot's centre at speed * t.
            let t = f64::from(120 - half) / f64::from(speed + target_speed);
            let expected = f64::from(speed) * t;
            let case = format!("shot at {speed} px/frame, target at {target_speed} px/frame");
            assert!(
                (x - expected).abs() <= CONTACT_TOLERANCE && y == 50.0,
                "{case}: hit reported at ({x}, {y}), first contact is at ({expected}, 50)"
            );
            assert!(
                (frame as f64) <= t && t <= (frame + 1) as f64,
                "{case}: hit reported in frame {frame}, contact is at t = {t}"
            );
        }
    }
}

/// The first moment in [0, 1] (a fraction of the frame) at which a shot of half size `half`
/// centred at `from` moving by `v` overlaps, edges included, a `size` box whose top-left
/// moves from `box_from` by `box_v`: found by stepping through the frame and bisecting the
/// step where the overlap begins. Independent of the unit's slab method.
fn first_contact(
    from: (f64, f64),
    v: (f64, f64),
    half: (f64, f64),
    box_from: (f64, f64),
    box_v: (f64, f64),
    size: (f64, f64),
) -> Option<f64> {
    let overlaps = |t: f64| {
        let (x, y) = (from.0 + v.0 * t, from.1 + v.1 * t);
        let (left, top) = (box_from.0 + box_v.0 * t, box_from.1 + box_v.1 * t);
        x + half.0 >= left
            && x - half.0 <= left + size.0
            && y + half.1 >= top
            && y - half.1 <= top + size.1
    };
    const STEPS: u32 = 20_000;
    if overlaps(0.0) {
        return Some(0.0);
    }
    let hit = (1..=STEPS).find(|&i| overlaps(f64::from(i) / f64::from(STEPS)))?;
    let (mut apart, mut touching) = (
        f64::from(hit - 1) / f64::from(STEPS),
        f64::from(hit) / f64::from(STEPS),
    );
    for _ in 0..60 {
        let mid = (apart + touching) / 2.0;
        if overlaps(mid) {
            touching = mid;
        } else {
            apart = mid;
        }
    }
    Some(touching)
}

#[test]
fn a_shot_hit_is_reported_where_the_shot_first_touches_the_box_along_its_path() {
    // (shot centre, shot velocity, target top-left at the end of the frame, size, motion
    // this frame), in pixels. Shots come in through the left face, the top face, the right
    // and bottom faces, at fractional speeds and against moving targets.
    type Pair = (f64, f64);
    #[rustfmt::skip]
    let cases: [(Pair, Pair, Pair, Pair, Pair); 7] = [
        ((10.0, 50.0), (100.0, 0.0), (60.0, 44.0), (16.0, 16.0), (0.0, 0.0)),
        ((10.0, 10.0), (60.0, 45.0), (40.0, 40.0), (24.0, 8.0), (0.0, 0.0)),
        ((10.0, 10.0), (45.0, 60.0), (30.0, 52.0), (40.0, 8.0), (0.0, 0.0)),
        ((200.0, 120.0), (-90.5, -30.25), (100.0, 90.0), (20.0, 20.0), (0.0, 0.0)),
        ((50.0, 200.0), (10.0, -150.0), (40.0, 100.0), (30.0, 12.0), (3.0, 20.0)),
        ((0.0, 80.0), (200.0, 17.75), (150.0, 60.0), (8.0, 40.0), (-25.0, 0.0)),
        ((128.0, 250.0), (0.0, -256.0), (120.0, 20.0), (12.0, 12.0), (0.0, -9.5)),
    ];
    let half = 2.0;
    for (n, &(from, v, target_at, size, moved)) in cases.iter().enumerate() {
        let mut unit = BulletUnit::default();
        unit.types[0].hit_w = fx(2);
        unit.types[0].hit_h = fx(2);
        unit.cull_margin = 2000;
        let f = crate::fixed::fx_from_f64;
        unit.shoot(Shot {
            x: f(from.0),
            y: f(from.1),
            vx: f(v.0),
            vy: f(v.1),
            kind: 0,
        });
        unit.add_target(Target {
            id: 3,
            x: f(target_at.0),
            y: f(target_at.1),
            w: f(size.0),
            h: f(size.1),
            dx: f(moved.0),
            dy: f(moved.1),
        });
        step(&mut unit);
        let box_from = (target_at.0 - moved.0, target_at.1 - moved.1);
        let t = first_contact(from, v, (half, half), box_from, moved, size)
            .unwrap_or_else(|| panic!("case {n} is meant to hit"));
        assert!(
            t > 0.05 && t < 0.95,
            "case {n}: contact inside the frame, t = {t}"
        );
        let expected = (from.0 + v.0 * t, from.1 + v.1 * t);
        let hits = shot_hits(&unit);
        let [(3, x, y)] = hits[..] else {
            panic!("case {n}: expected one hit on target 3, got {hits:?}");
        };
        assert!(
            (x - expected.0).abs() <= CONTACT_TOLERANCE
                && (y - expected.1).abs() <= CONTACT_TOLERANCE,
            "case {n}: hit reported at ({x}, {y}), first contact at t = {t} is at ({}, {})",
            expected.0,
            expected.1
        );
    }
}

#[test]
fn a_graze_is_counted_once_per_bullet() {
    let mut unit = unit_with_player(100, 100, 1, 12);
    // Passes 8 px beside the player: inside the graze box, outside the hit box.
    unit.spawn(bullet(fx(100 + 8), fx(40), 16384, fx(2), 0));
    let mut grazes = 0;
    for _ in 0..60 {
        step(&mut unit);
        grazes += unit.stats.grazes;
        assert!(unit.events.iter().all(|e| !matches!(e, Event::Hit { .. })));
    }
    assert_eq!(grazes, 1);
}

#[test]
fn a_spread_burst_fires_the_one_frame_ring_offset_by_its_delays() {
    let (n, frames, time) = (32u32, 2u32, 40usize);
    let origin = bullet(fx(128), fx(90), 1234, fx(2) + FX_ONE / 7, 0);
    // Positions of each bullet of a one-frame ring, frame by frame.
    let mut ring = BulletUnit::default();
    ring.ring(origin, n);
    let mut history: Vec<Vec<(Fx, Fx)>> = Vec::new();
    for _ in 0..=time {
        step(&mut ring);
        let mut positions: Vec<(Fx, Fx, u16)> = (0..ring.table.len())
            .map(|i| (ring.table.x[i], ring.table.y[i], ring.table.angle[i]))
            .collect();
        positions.sort_by_key(|p| p.2);
        history.push(positions.iter().map(|p| (p.0, p.1)).collect());
    }
    let mut burst = BulletUnit::default();
    burst.burst(origin, n, frames);
    for _ in 0..=time {
        step(&mut burst);
    }
    let mut got: Vec<(Fx, Fx)> = (0..burst.table.len())
        .map(|i| (burst.table.x[i], burst.table.y[i]))
        .collect();
    got.sort();
    // Ring bullet i (in angle order) is fired i % frames frames late.
    let mut angles: Vec<u16> = {
        let mut probe = BulletUnit::default();
        probe.ring(origin, n);
        probe.table.angle.clone()
    };
    angles.sort();
    let mut expected: Vec<(Fx, Fx)> = Vec::new();
    let mut order: Vec<(u16, usize)> = {
        let mut probe = BulletUnit::default();
        probe.ring(origin, n);
        probe
            .table
            .angle
            .iter()
            .enumerate()
            .map(|(i, a)| (*a, i))
            .collect()
    };
    order.sort();
    for (sorted_index, (_, fired_index)) in order.iter().enumerate() {
        let delay = fired_index % frames as usize;
        expected.push(history[time - delay][sorted_index]);
    }
    expected.sort();
    assert_eq!(angles.len(), n as usize);
    assert_eq!(got, expected);
}

#[test]
fn a_full_table_refuses_spawns_and_counts_them() {
    let mut unit = BulletUnit::default();
    let base = bullet(fx(128), fx(128), 0, 0, 0);
    for _ in 0..CAPACITY {
        assert!(unit.spawn(base));
    }
    assert!(!unit.spawn(base));
    assert!(!unit.spawn(base));
    assert_eq!(unit.stats.dropped, 2);
    assert_eq!(unit.table.len(), CAPACITY);
}

#[test]
fn a_ring_is_paid_by_its_caller_and_a_spread_one_by_the_frames_it_appears_in() {
    let base = bullet(fx(128), fx(128), 0, fx(1), 0);
    let mut rng = Rng::new(1);
    let mut one = BulletUnit::default();
    assert_eq!(one.ring(base, 64), 64);
    // The API call that made the ring paid its 64 spawns; the step pays for flying.
    assert_eq!(one.step(&mut rng, &[]), 64 * cost::BULLET_LIVE);
    let mut spread = BulletUnit::default();
    spread.burst(base, 64, 2);
    // Half fly now (paid by the call, like the ring), half appear next frame.
    let first = spread.step(&mut rng, &[]);
    let second = spread.step(&mut rng, &[]);
    assert_eq!(first, 32 * cost::BULLET_LIVE);
    assert_eq!(second, 32 * cost::BULLET_SPAWN + 64 * cost::BULLET_LIVE);
}

#[test]
fn bullets_leave_the_table_off_screen_and_cancel_reports_positions() {
    let mut unit = BulletUnit::default();
    unit.spawn(bullet(fx(250), fx(10), 0, fx(8), 0));
    unit.spawn(bullet(fx(100), fx(100), 0, 0, 3));
    unit.spawn(bullet(fx(10), fx(10), 0, 0, 4));
    for _ in 0..6 {
        step(&mut unit);
    }
    assert_eq!(
        unit.table.len(),
        2,
        "the fast one left the screen and its margin"
    );
    let cancelled = unit.cancel(Some((fx(50), fx(50), fx(100), fx(100))));
    assert_eq!(cancelled, vec![(fx(100), fx(100), 3)]);
    assert_eq!(unit.cancel(None).len(), 1);
    assert!(unit.table.is_empty());
}

#[test]
fn turning_and_accelerating_bullets_follow_their_polar_motion() {
    let mut unit = BulletUnit::default();
    unit.cull_margin = 1000;
    // Quarter turn over 64 frames (256 fine units a frame), speeding up by 1/16 px a frame.
    unit.spawn(Spawn {
        turn: 256,
        accel: FX_ONE / 16,
        frames: 64,
        ..bullet(fx(100), fx(100), 0, fx(1), 0)
    });
    for _ in 0..64 {
        step(&mut unit);
    }
    assert_eq!(
        unit.table.angle[0], 16384,
        "pointing down after a quarter turn"
    );
    assert_eq!(unit.table.speed[0], fx(5));
    let (x, y) = (unit.table.x[0], unit.table.y[0]);
    step(&mut unit);
    assert_eq!(
        (unit.table.x[0] - x, unit.table.y[0] - y),
        (0, fx(5)),
        "then straight on"
    );
    assert_eq!(fine_from_degrees(180.0), 16384);
}
