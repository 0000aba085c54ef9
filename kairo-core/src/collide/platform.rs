//! Moving platforms: rectangles the cart registers each frame at their new position with the
//! distance they moved, which bodies land on from above (they are one-way: passed from below
//! and from the sides) and which carry the bodies standing on them. A body remembers the
//! platform it stands on; its next move first adds that platform's motion to its own
//! velocity, so walls still stop it and the terrain still holds it, then lands it back on
//! the platform's top.

use super::error::{CollideError, Result};
use super::map::CollisionMap;
use super::mover::{Body, MoveOptions, Moved, flag, move_body};
use crate::fixed::{Fx, fx};

pub use crate::spec::PLATFORM_CAPACITY as CAPACITY;
/// Feet this close below a platform's previous top still count as standing on it (absorbs
/// the rounding of positions kept in Lua numbers).
const TOLERANCE: Fx = 1 << 12;

/// One moving platform, at its position after this frame's motion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Platform {
    /// The cart's name for it, given back as the body's `platform`.
    pub id: i64,
    pub x: Fx,
    pub y: Fx,
    pub w: i32,
    pub h: i32,
    /// How far it moved this frame.
    pub dx: Fx,
    pub dy: Fx,
}

/// The platforms of the current frame.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Platforms {
    list: Vec<Platform>,
}

impl Platforms {
    /// Registers `platform`; an error when the frame already has [`CAPACITY`].
    pub fn add(&mut self, platform: Platform) -> Result<()> {
        if self.list.len() >= CAPACITY {
            return Err(CollideError::PlatformsFull(CAPACITY));
        }
        if platform.w < 1 || platform.h < 1 {
            return Err(CollideError::PlatformSize {
                w: platform.w,
                h: platform.h,
            });
        }
        self.list.push(platform);
        Ok(())
    }

    pub fn clear(&mut self) {
        self.list.clear();
    }

    /// The platforms in registration order.
    pub fn iter(&self) -> std::slice::Iter<'_, Platform> {
        self.list.iter()
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    fn find(&self, id: i64) -> Option<&Platform> {
        self.list.iter().find(|p| p.id == id)
    }
}

/// A move among platforms: what [`move_body`] did, and the platform the body stands on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PlatformMove {
    pub moved: Moved,
    pub(crate) riding: Option<i64>,
    /// Platforms tested.
    pub tests: u32,
}

/// Moves `body` through `map` and the `platforms`; `riding` is the platform it stood on after
/// its last move. Afterwards `body.vx`/`body.vy` hold the distance moved, carrying included.
pub fn move_among(
    map: &CollisionMap,
    platforms: &Platforms,
    body: &mut Body,
    options: &MoveOptions,
    riding: Option<i64>,
) -> PlatformMove {
    let (org_x, org_y) = (body.x, body.y);
    let carrier = riding.and_then(|id| platforms.find(id)).copied();
    if let Some(p) = carrier {
        body.vx = body.vx.saturating_add(p.dx);
        body.vy = body.vy.saturating_add(p.dy);
    }
    let mut moved = move_body(map, body, options);
    let mut result = PlatformMove {
        tests: platforms.len() as u32,
        ..PlatformMove::default()
    };
    if options.drop_through || platforms.is_empty() {
        return PlatformMove { moved, ..result };
    }
    let h = fx(body.h);
    // (Sums saturate: a cart may register platforms anywhere.)
    // The landing surface of each platform (its top, or its bottom with gravity up), before
    // and after its motion, against the body's feet before and after the move.
    let mut best: Option<(Fx, &Platform)> = None;
    for p in &platforms.list {
        let overlaps =
            body.x < p.x.saturating_add(fx(p.w)) && body.x.saturating_add(fx(body.w)) > p.x;
        if !overlaps {
            continue;
        }
        let lands = if options.gravity_up {
            let after = p.y.saturating_add(fx(p.h));
            let before = after.saturating_sub(p.dy);
            org_y >= before.saturating_sub(TOLERANCE) && body.y <= after
        } else {
            let (before, after) = (p.y.saturating_sub(p.dy), p.y);
            org_y.saturating_add(h) <= before.saturating_add(TOLERANCE)
                && body.y.saturating_add(h) >= after
        };
        if !lands {
            continue;
        }
        // Of several platforms crossed, the first one the feet reach.
        let surface = if options.gravity_up {
            -p.y.saturating_add(fx(p.h))
        } else {
            p.y
        };
        if best.is_none_or(|(s, _)| surface < s) {
            best = Some((surface, p));
        }
    }
    if let Some((_, p)) = best {
        body.y = if options.gravity_up {
            p.y.saturating_add(fx(p.h))
        } else {
            p.y.saturating_sub(h)
        };
        moved.flags |= flag::GROUND | flag::ON_PLATFORM;
        moved.flags &= !(flag::LADDER_TOP | flag::ON_ICE | flag::ON_SLOPE | flag::ON_ONEWAY);
        moved.slope = None;
        result.riding = Some(p.id);
    }
    body.vx = body.x.saturating_sub(org_x);
    body.vy = body.y.saturating_sub(org_y);
    result.moved = moved;
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collide::mover::Mode;
    use crate::collide::tile::Tile;

    /// A 16x8-cell map, empty but for a wall column at cell x = 12 and a floor at row 7.
    fn map() -> CollisionMap {
        let mut map = CollisionMap::new(16, 8);
        for cx in 0..16 {
            map.set(cx, 7, Tile::Solid);
        }
        for cy in 0..7 {
            map.set(12, cy, Tile::Solid);
        }
        map
    }

    fn body(x: i32, y: i32) -> Body {
        Body {
            x: fx(x),
            y: fx(y),
            w: 10,
            h: 14,
            vx: 0,
            vy: 0,
        }
    }

    fn platform(x: i32, y: i32, dx: i32, dy: i32) -> Platforms {
        let mut list = Platforms::default();
        list.add(Platform {
            id: 7,
            x: fx(x),
            y: fx(y),
            w: 32,
            h: 8,
            dx: fx(dx),
            dy: fx(dy),
        })
        .unwrap();
        list
    }

    /// One frame of a body with gravity on a platform path: returns its flags and riding.
    fn frame(
        b: &mut Body,
        platforms: &Platforms,
        riding: Option<i64>,
        mode: Mode,
    ) -> (u32, Option<i64>) {
        b.vx = 0;
        b.vy = fx(1) / 4;
        let options = MoveOptions {
            mode,
            ..MoveOptions::default()
        };
        let r = move_among(&map(), platforms, b, &options, riding);
        (r.moved.flags, r.riding)
    }

    #[test]
    fn a_falling_body_lands_on_a_platform_and_rides_it_sideways_and_up_and_down() {
        let mut b = body(20, 40);
        let mut riding = None;
        let mut mode = Mode::Air;
        // Fall onto a platform whose top is at y = 64.
        for _ in 0..40 {
            b.vy = fx(2);
            let options = MoveOptions {
                mode,
                ..MoveOptions::default()
            };
            let r = move_among(&map(), &platform(10, 64, 0, 0), &mut b, &options, riding);
            riding = r.riding;
            if r.moved.flags & flag::GROUND != 0 {
                mode = Mode::Ground;
            }
        }
        assert_eq!(riding, Some(7));
        assert_eq!(b.y, fx(64 - 14));
        // It moves right 1 px a frame for 20 frames, then up and down 2 px a frame.
        let mut px = 10;
        let mut py = 64;
        for f in 0..60 {
            let (dx, dy) = match f {
                0..20 => (1, 0),
                20..40 => (0, -2),
                _ => (0, 2),
            };
            px += dx;
            py += dy;
            let (flags, r) = frame(&mut b, &platform(px, py, dx, dy), riding, Mode::Ground);
            riding = r;
            assert_eq!(riding, Some(7), "frame {f}");
            assert!(flags & flag::ON_PLATFORM != 0 && flags & flag::GROUND != 0);
            assert_eq!(b.y, fx(py - 14), "feet on the top, frame {f}");
            assert_eq!(b.x, fx(20 + px - 10), "carried, frame {f}");
        }
    }

    #[test]
    fn a_platform_passes_bodies_from_below_and_drops_them_on_request() {
        // Jumping up through it.
        let mut b = body(20, 70);
        b.vy = -fx(6);
        let r = move_among(
            &map(),
            &platform(10, 64, 0, 0),
            &mut b,
            &MoveOptions {
                mode: Mode::Air,
                ..MoveOptions::default()
            },
            None,
        );
        assert_eq!(r.riding, None);
        assert_eq!(b.y, fx(64));
        // Standing on it and dropping.
        let mut b = body(20, 50);
        b.vy = fx(1);
        let r = move_among(
            &map(),
            &platform(10, 64, 0, 0),
            &mut b,
            &MoveOptions {
                drop_through: true,
                ..MoveOptions::default()
            },
            Some(7),
        );
        assert_eq!(r.riding, None);
        assert_eq!(b.y, fx(51));
    }

    #[test]
    fn a_wall_stops_a_carried_body_and_it_falls_off_the_platform() {
        // Cell 12 is a wall from x = 192; the platform slides under it.
        let mut b = body(170, 50);
        let mut riding = Some(7);
        let mut px = 160;
        let mut fell = false;
        for _ in 0..60 {
            px += 1;
            let (flags, r) = frame(&mut b, &platform(px, 64, 1, 0), riding, Mode::Ground);
            riding = r;
            assert!(b.x + fx(10) <= fx(192), "never inside the wall");
            if riding.is_none() {
                fell = flags & flag::GROUND == 0;
                break;
            }
        }
        assert!(fell, "the platform left the body behind and it fell");
    }

    #[test]
    fn gravity_up_rides_the_underside() {
        let mut b = body(20, 72);
        let options = MoveOptions {
            gravity_up: true,
            ..MoveOptions::default()
        };
        let mut riding = Some(7);
        let mut px = 10;
        for _ in 0..10 {
            px += 1;
            b.vx = 0;
            b.vy = -fx(1) / 4;
            let r = move_among(&map(), &platform(px, 64, 1, 0), &mut b, &options, riding);
            riding = r.riding;
            assert_eq!(riding, Some(7), "{b:?}");
            assert_eq!(b.y, fx(72), "head against the underside");
        }
        assert_eq!(b.x, fx(30));
    }

    #[test]
    fn the_list_is_bounded() {
        let mut list = Platforms::default();
        let p = Platform {
            id: 1,
            x: 0,
            y: 0,
            w: 16,
            h: 4,
            dx: 0,
            dy: 0,
        };
        for _ in 0..CAPACITY {
            list.add(p).unwrap();
        }
        assert!(list.add(p).is_err());
        list.clear();
        assert!(list.add(Platform { w: 0, ..p }).is_err());
    }
}
