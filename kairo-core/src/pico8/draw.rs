//! Drawing into PICO-8's screen memory, with its draw state: the camera moves everything
//! drawn, the clip rectangle (screen pixels) cuts it, the draw palette maps each colour
//! (`pal`) and marks the colours sprites leave out (`palt`: bit 4 of an entry), the fill
//! pattern (`fillp`: bit 15 the top-left pixel of a 4 x 4 cell aligned to the screen) draws
//! its set bits in the colour's high nibble, or not at all when its transparency bit is set.
//! Every function returns the pixels it examined, what its cost is counted in.

use super::{CAMERA, CLIP, DRAW_PALETTE, FILL_PATTERN, MAP, MAP_SHARED, PEN, Pico8, SCREEN, SIDE};

impl Pico8 {
    pub(super) fn camera(&self) -> (i32, i32) {
        let word = |at: usize| i32::from(i16::from_le_bytes([self.ram[at], self.ram[at + 1]]));
        (word(CAMERA), word(CAMERA + 2))
    }

    /// Sets the camera; returns the old one.
    pub fn set_camera(&mut self, x: i32, y: i32) -> (i32, i32) {
        let old = self.camera();
        self.ram[CAMERA..CAMERA + 2].copy_from_slice(&(x as i16).to_le_bytes());
        self.ram[CAMERA + 2..CAMERA + 4].copy_from_slice(&(y as i16).to_le_bytes());
        old
    }

    /// The clip rectangle: x0, y0, x1, y1 (ends excluded).
    pub(super) fn clip(&self) -> (i32, i32, i32, i32) {
        let c = &self.ram[CLIP..CLIP + 4];
        (
            i32::from(c[0]),
            i32::from(c[1]),
            i32::from(c[2]).min(SIDE as i32),
            i32::from(c[3]).min(SIDE as i32),
        )
    }

    /// `clip(x, y, w, h)`, cut to the screen; `None` resets it.
    pub fn set_clip(&mut self, rect: Option<(i32, i32, i32, i32)>) {
        let (x0, y0, x1, y1) = match rect {
            Some((x, y, w, h)) => (x, y, x.saturating_add(w), y.saturating_add(h)),
            None => (0, 0, 128, 128),
        };
        let side = |v: i32| v.clamp(0, SIDE as i32) as u8;
        self.ram[CLIP..CLIP + 4].copy_from_slice(&[side(x0), side(y0), side(x1), side(y1)]);
    }

    /// The pen colour, or `color` (which becomes the pen colour).
    pub fn pen(&mut self, color: Option<i64>) -> u8 {
        match color {
            Some(c) => {
                self.ram[PEN] = c as u8;
                c as u8
            }
            None => self.ram[PEN],
        }
    }

    fn screen_set(&mut self, x: usize, y: usize, color: u8) {
        let at = SCREEN + y * 64 + x / 2;
        let byte = &mut self.ram[at];
        *byte = if x.is_multiple_of(2) {
            (*byte & 0xF0) | (color & 15)
        } else {
            (*byte & 0x0F) | (color & 15) << 4
        };
    }

    /// Plots a shape's pixel at screen (x, y): clipped, through the draw palette and the fill
    /// pattern.
    pub(super) fn plot(&mut self, x: i32, y: i32, color: u8) {
        let (x0, y0, x1, y1) = self.clip();
        if x < x0 || y < y0 || x >= x1 || y >= y1 {
            return;
        }
        let pattern = u16::from_le_bytes([self.ram[FILL_PATTERN], self.ram[FILL_PATTERN + 1]]);
        let bit = 0x8000u16 >> ((y & 3) * 4 + (x & 3));
        let color = if pattern & bit != 0 {
            if self.ram[FILL_PATTERN + 2] & 1 != 0 {
                return;
            }
            color >> 4
        } else {
            color & 15
        };
        let shown = self.ram[DRAW_PALETTE + usize::from(color & 15)] & 15;
        self.screen_set(x as usize, y as usize, shown);
    }

    /// `cls(color)`: the whole screen in `color` (not through the palettes), the cursor home
    /// and the clip reset.
    pub fn cls(&mut self, color: u8) {
        let c = color & 15;
        self.ram[SCREEN..SCREEN + 0x2000].fill(c | c << 4);
        self.ram[super::CURSOR..super::CURSOR + 2].fill(0);
        self.set_clip(None);
    }

    /// `pset`.
    pub fn pset(&mut self, x: i32, y: i32, color: u8) -> u64 {
        let (cx, cy) = self.camera();
        self.plot(x - cx, y - cy, color);
        1
    }

    /// `pget`: the colour at (x, y) through the camera, 0 off the screen.
    pub fn pget(&self, x: i32, y: i32) -> u8 {
        let (cx, cy) = self.camera();
        let (x, y) = (x - cx, y - cy);
        if (0..SIDE as i32).contains(&x) && (0..SIDE as i32).contains(&y) {
            self.screen_pixel(x as usize, y as usize)
        } else {
            0
        }
    }

    /// `rectfill` (corners in either order, both included).
    pub fn rectfill(&mut self, a: (i32, i32), b: (i32, i32), color: u8) -> u64 {
        let (cx, cy) = self.camera();
        let (x0, x1) = (a.0.min(b.0) - cx, a.0.max(b.0) - cx);
        let (y0, y1) = (a.1.min(b.1) - cy, a.1.max(b.1) - cy);
        let (l, t, r, btm) = self.clip();
        let (x0c, x1c, y0c, y1c) = (x0.max(l), x1.min(r - 1), y0.max(t), y1.min(btm - 1));
        let mut n = 0;
        for y in y0c..=y1c {
            for x in x0c..=x1c {
                self.plot(x, y, color);
                n += 1;
            }
        }
        n
    }

    /// `rect`: the outline.
    pub fn rect(&mut self, a: (i32, i32), b: (i32, i32), color: u8) -> u64 {
        let (x0, x1) = (a.0.min(b.0), a.0.max(b.0));
        let (y0, y1) = (a.1.min(b.1), a.1.max(b.1));
        let mut n = self.line((x0, y0), (x1, y0), color) + self.line((x0, y1), (x1, y1), color);
        if y1 - y0 > 1 {
            n += self.line((x0, y0 + 1), (x0, y1 - 1), color);
            n += self.line((x1, y0 + 1), (x1, y1 - 1), color);
        }
        n
    }

    /// `line`: both ends included, one pixel per step along the longer axis.
    pub fn line(&mut self, a: (i32, i32), b: (i32, i32), color: u8) -> u64 {
        let (cx, cy) = self.camera();
        let (x0, y0, x1, y1) = (
            i64::from(a.0 - cx),
            i64::from(a.1 - cy),
            i64::from(b.0 - cx),
            i64::from(b.1 - cy),
        );
        let (dx, dy) = (x1 - x0, y1 - y0);
        let steps = dx.abs().max(dy.abs());
        if steps == 0 {
            self.plot(x0 as i32, y0 as i32, color);
            return 1;
        }
        // Past a few screens' length nothing more can show: the walk stops there.
        let walked = steps.min(4096);
        for i in 0..=walked {
            // Rounded to the nearest pixel, halves away from the start.
            let x = x0 + (dx * i * 2 + dx.signum() * steps) / (2 * steps);
            let y = y0 + (dy * i * 2 + dy.signum() * steps) / (2 * steps);
            self.plot(x as i32, y as i32, color);
        }
        walked as u64 + 1
    }

    /// `circfill` / `circ` as PICO-8 draws them (and as zepto8, fake-08, tac08 and pemsa all
    /// agree for every radius 0-127): the integer midpoint walk from (r, 0) while x >= y,
    /// each point mirrored eight ways; `y` steps by one, the error `e` (from 0) grows by
    /// `2y + 1` while `e < r - 1`, else `x` steps back and `e` grows by `2(y - x) + 1`. The
    /// outline is those points; the disc fills the rows between them.
    pub fn circle(&mut self, centre: (i32, i32), r: i32, filled: bool, color: u8) -> u64 {
        if r < 0 {
            return 0;
        }
        let (cx, cy) = self.camera();
        let (ox, oy) = (centre.0 - cx, centre.1 - cy);
        let (l, t, right, bottom) = self.clip();
        // A circle that cannot touch the clip is not walked.
        if ox + r < l || ox - r >= right || oy + r < t || oy - r >= bottom {
            return 0;
        }
        let (mut x, mut y, mut e) = (r, 0, 0);
        let mut n = 0;
        while x >= y {
            if filled {
                for (row, half) in [(oy + y, x), (oy - y, x), (oy + x, y), (oy - x, y)] {
                    n += self.span(row, ox - half, ox + half, color);
                }
            } else {
                for (dx, dy) in [
                    (x, y),
                    (y, x),
                    (-x, y),
                    (-y, x),
                    (x, -y),
                    (y, -x),
                    (-x, -y),
                    (-y, -x),
                ] {
                    self.plot(ox + dx, oy + dy, color);
                    n += 1;
                }
            }
            y += 1;
            if e < r - 1 {
                e += 2 * y + 1;
            } else {
                x -= 1;
                e += 2 * (y - x) + 1;
            }
        }
        n
    }

    /// A row of pixels `x0..=x1` at `y` (clipped), through the palette and the fill pattern.
    pub(super) fn span(&mut self, y: i32, x0: i32, x1: i32, color: u8) -> u64 {
        let (l, t, r, b) = self.clip();
        if y < t || y >= b {
            return 0;
        }
        let (from, to) = (x0.max(l), x1.min(r - 1));
        for x in from..=to {
            self.plot(x, y, color);
        }
        (to - from + 1).max(0) as u64
    }

    /// Sheet pixel (x, y), 0-15.
    pub fn sheet_pixel(&self, x: usize, y: usize) -> u8 {
        let byte = self.ram[(y % SIDE) * 64 + (x % SIDE) / 2];
        if x.is_multiple_of(2) {
            byte & 15
        } else {
            byte >> 4
        }
    }

    /// Sets sheet pixel (x, y) (`sset`).
    pub fn sset(&mut self, x: usize, y: usize, color: u8) {
        let at = (y % SIDE) * 64 + (x % SIDE) / 2;
        let byte = &mut self.ram[at];
        *byte = if x.is_multiple_of(2) {
            (*byte & 0xF0) | (color & 15)
        } else {
            (*byte & 0x0F) | (color & 15) << 4
        };
    }

    /// `sspr`: the sheet rectangle (sx, sy, sw, sh) drawn into (dx, dy, dw, dh), each screen
    /// pixel showing the sheet pixel its position scales to; colours `palt` marks are left
    /// out, the others go through the draw palette.
    #[allow(clippy::too_many_arguments)]
    pub fn sspr(
        &mut self,
        source: (i32, i32, i32, i32),
        target: (i32, i32, i32, i32),
        flip_x: bool,
        flip_y: bool,
    ) -> u64 {
        let (sx, sy, sw, sh) = source;
        let (cx, cy) = self.camera();
        let (dx, dy, dw, dh) = (target.0 - cx, target.1 - cy, target.2, target.3);
        if sw <= 0 || sh <= 0 || dw <= 0 || dh <= 0 {
            return 0;
        }
        let (l, t, r, b) = self.clip();
        let mut n = 0;
        for y in dy.max(t)..(dy + dh).min(b) {
            let mut v = i64::from(y - dy) * i64::from(sh) / i64::from(dh);
            if flip_y {
                v = i64::from(sh) - 1 - v;
            }
            let py = i64::from(sy) + v;
            for x in dx.max(l)..(dx + dw).min(r) {
                let mut u = i64::from(x - dx) * i64::from(sw) / i64::from(dw);
                if flip_x {
                    u = i64::from(sw) - 1 - u;
                }
                let px = i64::from(sx) + u;
                n += 1;
                if !(0..SIDE as i64).contains(&px) || !(0..SIDE as i64).contains(&py) {
                    continue;
                }
                let color = self.sheet_pixel(px as usize, py as usize);
                let entry = self.ram[DRAW_PALETTE + usize::from(color)];
                if entry & 0x10 == 0 {
                    self.screen_set(x as usize, y as usize, entry & 15);
                }
            }
        }
        n
    }

    /// `spr(n, x, y, w, h, flip_x, flip_y)`: `w` x `h` sprites from sprite `n`.
    pub fn spr(&mut self, n: i32, at: (i32, i32), size: (f64, f64), flip: (bool, bool)) -> u64 {
        let n = n.rem_euclid(256);
        let (sx, sy) = ((n % 16) * 8, (n / 16) * 8);
        let (w, h) = ((size.0 * 8.0) as i32, (size.1 * 8.0) as i32);
        self.sspr((sx, sy, w, h), (at.0, at.1, w, h), flip.0, flip.1)
    }

    /// Map cell (x, y), 0 outside 128 x 64.
    pub fn mget(&self, x: i32, y: i32) -> u8 {
        match map_address(x, y) {
            Some(at) => self.ram[at],
            None => 0,
        }
    }

    /// Sets map cell (x, y) (nothing outside 128 x 64).
    pub fn mset(&mut self, x: i32, y: i32, value: u8) {
        if let Some(at) = map_address(x, y) {
            self.ram[at] = value;
        }
    }

    /// Sprite `n`'s flags.
    pub fn fget(&self, n: i32) -> u8 {
        self.ram[super::FLAGS + n.rem_euclid(256) as usize]
    }

    /// Sets sprite `n`'s flags.
    pub fn fset(&mut self, n: i32, flags: u8) {
        self.ram[super::FLAGS + n.rem_euclid(256) as usize] = flags;
    }

    /// `map(cx, cy, sx, sy, cw, ch, layers)`: the cells' sprites at 8 px each; cells of
    /// sprite 0 are not drawn, nor, with `layers`, sprites whose flags share no bit with it.
    pub fn map(&mut self, cell: (i32, i32), at: (i32, i32), size: (i32, i32), layers: u8) -> u64 {
        let mut n = 0;
        for j in 0..size.1.clamp(0, 64) {
            for i in 0..size.0.clamp(0, 128) {
                let sprite = self.mget(cell.0 + i, cell.1 + j);
                if sprite == 0 || (layers != 0 && self.fget(i32::from(sprite)) & layers == 0) {
                    continue;
                }
                n += self.spr(
                    i32::from(sprite),
                    (at.0 + i * 8, at.1 + j * 8),
                    (1.0, 1.0),
                    (false, false),
                );
            }
        }
        n
    }
}

/// Where map cell (x, y) lives.
fn map_address(x: i32, y: i32) -> Option<usize> {
    if !(0..128).contains(&x) || !(0..64).contains(&y) {
        return None;
    }
    let (x, y) = (x as usize, y as usize);
    Some(if y < 32 {
        MAP + y * 128 + x
    } else {
        MAP_SHARED + (y - 32) * 128 + x
    })
}

#[cfg(test)]
mod tests {
    use super::super::{ROM_BYTES, Rom};
    use super::*;

    fn pico8() -> Pico8 {
        Pico8::new(&Rom {
            bytes: Box::new([0; ROM_BYTES]),
        })
    }

    #[test]
    fn camera_clip_and_palette_apply_to_shapes() {
        let mut p = pico8();
        p.set_camera(10, 0);
        p.pset(12, 3, 8);
        assert_eq!(p.screen_pixel(2, 3), 8);
        p.set_camera(0, 0);
        p.set_clip(Some((0, 0, 4, 4)));
        p.rectfill((0, 0), (9, 9), 7);
        assert_eq!((p.screen_pixel(3, 3), p.screen_pixel(4, 4)), (7, 0));
        p.set_clip(None);
        p.poke(DRAW_PALETTE + 7, 12);
        p.pset(50, 50, 7);
        assert_eq!(p.screen_pixel(50, 50), 12);
    }

    /// The half widths of circfill's rows 0..=r below the centre.
    fn widths(r: i32) -> Vec<i32> {
        let mut p = pico8();
        p.circle((64, 64), r, true, 7);
        (0..=r)
            .map(|dy| {
                (0..128)
                    .filter(|&x| p.screen_pixel(x, (64 + dy) as usize) == 7)
                    .map(|x| x as i32 - 64)
                    .max()
                    .unwrap_or(-1)
            })
            .collect()
    }

    #[test]
    fn circles_are_pico8s_for_the_radii_the_emulators_agree_on() {
        // docs/internals/pico8-drawing.md, 2.5: circfill's half width per row, r = 1..10.
        let table: [&[i32]; 10] = [
            &[1, 0],
            &[2, 2, 1],
            &[3, 3, 2, 1],
            &[4, 4, 3, 3, 1],
            &[5, 5, 5, 4, 3, 2],
            &[6, 6, 6, 5, 4, 3, 2],
            &[7, 7, 7, 6, 6, 5, 4, 2],
            &[8, 8, 8, 7, 7, 6, 5, 4, 2],
            &[9, 9, 9, 8, 8, 7, 7, 6, 4, 2],
            &[10, 10, 10, 10, 9, 9, 8, 7, 6, 5, 3],
        ];
        for (i, want) in table.iter().enumerate() {
            assert_eq!(widths(i as i32 + 1), *want, "r = {}", i + 1);
        }
        // The outline of r = 3, row by row.
        let mut p = pico8();
        p.circle((3, 3), 3, false, 7);
        let rows: Vec<String> = (0..7)
            .map(|y| {
                (0..7)
                    .map(|x| if p.screen_pixel(x, y) == 7 { '#' } else { '.' })
                    .collect()
            })
            .collect();
        assert_eq!(
            rows,
            [
                "..###..", ".#...#.", "#.....#", "#.....#", "#.....#", ".#...#.", "..###.."
            ]
        );
        // r = 0 is one pixel; a negative radius draws nothing.
        let mut p = pico8();
        p.circle((10, 10), 0, true, 7);
        p.circle((20, 20), -1, true, 7);
        assert_eq!((p.screen_pixel(10, 10), p.screen_pixel(20, 20)), (7, 0));
    }

    #[test]
    fn sprites_leave_out_palt_colours_and_flip() {
        let mut p = pico8();
        // Sprite 1: pixel (0, 0) colour 5, the rest 0.
        p.sset(8, 0, 5);
        p.cls(3);
        p.spr(1, (0, 0), (1.0, 1.0), (false, false));
        assert_eq!(p.screen_pixel(0, 0), 5);
        assert_eq!(p.screen_pixel(1, 0), 3, "colour 0 is left out at power-on");
        p.spr(1, (16, 0), (1.0, 1.0), (true, false));
        assert_eq!(p.screen_pixel(23, 0), 5, "flipped");
    }

    #[test]
    fn the_map_draws_its_cells_and_skips_sprite_0_and_other_layers() {
        let mut p = pico8();
        p.sset(8, 0, 9); // sprite 1
        p.sset(16, 0, 10); // sprite 2
        p.fset(2, 0b10);
        p.mset(0, 0, 1);
        p.mset(1, 0, 2);
        p.mset(0, 40, 2);
        assert_eq!(p.mget(0, 40), 2, "rows 32-63 live in the shared half");
        p.cls(0);
        p.map((0, 0), (0, 0), (2, 1), 0);
        assert_eq!((p.screen_pixel(0, 0), p.screen_pixel(8, 0)), (9, 10));
        p.cls(0);
        p.map((0, 0), (0, 0), (2, 1), 0b10);
        assert_eq!((p.screen_pixel(0, 0), p.screen_pixel(8, 0)), (0, 10));
    }
}
