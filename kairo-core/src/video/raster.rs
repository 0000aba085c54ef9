//! Rasterizers of the drawing plane: each shape becomes horizontal spans of screen pixels,
//! already cut to a clip rectangle, so drawing and charging work only where the shape shows.
//! All arithmetic is integer (i64, i128 for ovals): the same pixels on every platform.
//! Coordinates are expected within +-2^24 (the API passes at most about +-2^19); ovals clamp
//! their corners to +-2^21 so their arithmetic stays exact.
//!
//! Rules: rectangles and lines include both ends; an oval covers the pixels whose centres lie
//! inside the ellipse inscribed in its box with half-axes 0.1 px shorter (a circle of radius
//! r: centres within r + 0.4 px), so radius 1 is a plus and a one-pixel-wide box a line; a
//! filled triangle covers the pixel centres inside it or on its edges; an outline is the
//! shape's pixels that have a 4-neighbour outside it.
//!
//! Shapes return the rows they examined (rows of the clip their box crosses, when it crosses
//! the clip's columns too), so a shape that shows little after much work is charged for it.

/// One run of pixels on screen row `y`, from `x0` to `x1` inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Span {
    pub y: u8,
    pub x0: u8,
    pub x1: u8,
}

impl Span {
    /// Pixels in the span.
    pub fn len(&self) -> usize {
        usize::from(self.x1 - self.x0) + 1
    }
}

/// A clip rectangle on screen: x0..x1, y0..y1, ends excluded, inside 0..256.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Clip {
    pub x0: i32,
    pub y0: i32,
    pub x1: i32,
    pub y1: i32,
}

impl Clip {
    /// The whole screen.
    pub(crate) const SCREEN: Clip = Clip {
        x0: 0,
        y0: 0,
        x1: crate::spec::SCREEN_W as i32,
        y1: crate::spec::SCREEN_H as i32,
    };

    /// The rectangle of `w` x `h` px at (x, y), cut to the screen (empty if w or h <= 0).
    pub fn new(x: i64, y: i64, w: i64, h: i64) -> Clip {
        let s = Clip::SCREEN;
        let cut = |v: i64, lo: i32, hi: i32| v.clamp(i64::from(lo), i64::from(hi)) as i32;
        let (x0, y0) = (cut(x, s.x0, s.x1), cut(y, s.y0, s.y1));
        let x1 = cut(x.saturating_add(w.max(0)), x0, s.x1);
        let y1 = cut(y.saturating_add(h.max(0)), y0, s.y1);
        Clip { x0, y0, x1, y1 }
    }

    /// As `[x0, y0, x1, y1]`.
    pub(crate) fn bounds(&self) -> [i32; 4] {
        [self.x0, self.y0, self.x1, self.y1]
    }

    /// Appends the part of row `y` from `x0` to `x1` (inclusive) inside the clip.
    fn push(&self, out: &mut Vec<Span>, y: i64, x0: i64, x1: i64) {
        if y < i64::from(self.y0) || y >= i64::from(self.y1) {
            return;
        }
        let (x0, x1) = (x0.max(i64::from(self.x0)), x1.min(i64::from(self.x1) - 1));
        if x0 <= x1 {
            out.push(Span {
                y: y as u8,
                x0: x0 as u8,
                x1: x1 as u8,
            });
        }
    }

    /// The rows of `y0..=y1` inside the clip.
    fn rows(&self, y0: i64, y1: i64) -> std::ops::RangeInclusive<i64> {
        y0.max(i64::from(self.y0))..=y1.min(i64::from(self.y1) - 1)
    }

    /// The rows of the box (x0, y0)-(x1, y1) (ordered) inside the clip, none when the box
    /// misses the clip's columns.
    fn box_rows(
        &self,
        (x0, y0): (i64, i64),
        (x1, y1): (i64, i64),
    ) -> std::ops::RangeInclusive<i64> {
        if x1 < i64::from(self.x0) || x0 >= i64::from(self.x1) {
            return std::ops::RangeInclusive::new(1, 0);
        }
        self.rows(y0, y1)
    }
}

/// Orders two corners into (low, high).
fn ordered(a: i64, b: i64) -> (i64, i64) {
    (a.min(b), a.max(b))
}

/// A filled rectangle with corners (x0, y0) and (x1, y1), in either order. Returns the rows
/// examined.
pub fn rect_fill(
    clip: &Clip,
    (x0, y0): (i64, i64),
    (x1, y1): (i64, i64),
    out: &mut Vec<Span>,
) -> u64 {
    let (x0, x1) = ordered(x0, x1);
    let (y0, y1) = ordered(y0, y1);
    let rows = clip.box_rows((x0, y0), (x1, y1));
    for y in rows.clone() {
        clip.push(out, y, x0, x1);
    }
    rows.count() as u64
}

/// A rectangle's outline: each pixel once. Returns the rows examined.
pub(crate) fn rect_outline(
    clip: &Clip,
    (x0, y0): (i64, i64),
    (x1, y1): (i64, i64),
    out: &mut Vec<Span>,
) -> u64 {
    let (x0, x1) = ordered(x0, x1);
    let (y0, y1) = ordered(y0, y1);
    let rows = clip.box_rows((x0, y0), (x1, y1));
    let examined = rows.clone().count() as u64;
    for y in rows {
        if y == y0 || y == y1 {
            clip.push(out, y, x0, x1);
        } else {
            clip.push(out, y, x0, x0);
            if x1 > x0 {
                clip.push(out, y, x1, x1);
            }
        }
    }
    examined
}

/// A line from (x0, y0) to (x1, y1), both ends included (Bresenham), as runs per row. The
/// walk stops once it has left the clip. Returns the line's length in pixels (what it costs).
pub fn line(clip: &Clip, (x0, y0): (i64, i64), (x1, y1): (i64, i64), out: &mut Vec<Span>) -> u64 {
    let (dx, dy) = ((x1 - x0).abs(), -(y1 - y0).abs());
    let (sx, sy) = (if x0 < x1 { 1 } else { -1 }, if y0 < y1 { 1 } else { -1 });
    let (mut x, mut y, mut err) = (x0, y0, dx + dy);
    let inside = |x: i64, y: i64| {
        (i64::from(clip.x0)..i64::from(clip.x1)).contains(&x)
            && (i64::from(clip.y0)..i64::from(clip.y1)).contains(&y)
    };
    let mut run: Option<(i64, i64, i64)> = None;
    let mut was_inside = false;
    loop {
        if inside(x, y) {
            was_inside = true;
            run = match run {
                Some((ry, a, b)) if ry == y && (x == b + 1 || x == a - 1) => {
                    Some((ry, a.min(x), b.max(x)))
                }
                other => {
                    if let Some((ry, a, b)) = other {
                        clip.push(out, ry, a, b);
                    }
                    Some((y, x, x))
                }
            };
        } else if was_inside {
            break;
        }
        if x == x1 && y == y1 {
            break;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x += sx;
        }
        if e2 <= dx {
            err += dx;
            y += sy;
        }
    }
    if let Some((ry, a, b)) = run {
        clip.push(out, ry, a, b);
    }
    dx.max(-dy) as u64 + 1
}

/// The pixels of the oval in the box (x0, y0)-(x1, y1) on row `y`, as (first, last).
struct Oval {
    cx2: i64,
    cy2: i64,
    /// The doubled half-axes in tenths of a pixel, squared: (10 * (side - 0.2))^2, exact in
    /// an f64 (corners within [`OVAL_REACH`]).
    a2: i64,
    b2: i64,
}

impl Oval {
    fn new((x0, y0): (i64, i64), (x1, y1): (i64, i64)) -> Oval {
        let a = 10 * (x1 - x0 + 1) - 2;
        let b = 10 * (y1 - y0 + 1) - 2;
        Oval {
            cx2: x0 + x1,
            cy2: y0 + y1,
            a2: a * a,
            b2: b * b,
        }
    }

    fn row(&self, y: i64) -> Option<(i64, i64)> {
        let ey = 10 * (2 * y - self.cy2);
        let room = self.b2 - ey * ey;
        if room < 0 {
            return None;
        }
        // The largest doubled x offset e with (10 e)^2 b^2 <= a^2 room: a float square root
        // as a first guess, made exact with integer products (i128 only where they need it).
        let rhs = i128::from(self.a2) * i128::from(room);
        let k = 100 * self.b2;
        let fits = |e: i64| i128::from(e * e) * i128::from(k) <= rhs;
        let mut e = (self.a2 as f64 * room as f64 / k as f64).sqrt() as i64;
        while e > 0 && !fits(e) {
            e -= 1;
        }
        while fits(e + 1) {
            e += 1;
        }
        let first = (self.cx2 - e).div_euclid(2) + (self.cx2 - e).rem_euclid(2);
        let last = (self.cx2 + e).div_euclid(2);
        (first <= last).then_some((first, last))
    }
}

/// How far from the origin an oval's corners may be.
const OVAL_REACH: i64 = 1 << 21;

/// An oval in the box with corners (x0, y0) and (x1, y1), in either order, filled or as an
/// outline. Returns the rows examined.
pub fn oval(clip: &Clip, a: (i64, i64), b: (i64, i64), filled: bool, out: &mut Vec<Span>) -> u64 {
    let far = |v: i64| v.clamp(-OVAL_REACH, OVAL_REACH);
    let (x0, x1) = ordered(far(a.0), far(b.0));
    let (y0, y1) = ordered(far(a.1), far(b.1));
    let shape = Oval::new((x0, y0), (x1, y1));
    let rows = clip.box_rows((x0, y0), (x1, y1));
    let examined = rows.clone().count() as u64;
    // Each row is worked out once: the outline looks at the rows above and below too.
    let (mut up, mut here) = (shape.row(rows.start() - 1), shape.row(*rows.start()));
    for y in rows {
        let down = shape.row(y + 1);
        let this = std::mem::replace(&mut here, down);
        let above = std::mem::replace(&mut up, this);
        let Some((first, last)) = this else {
            continue;
        };
        if filled {
            clip.push(out, y, first, last);
            continue;
        }
        // Interior: inside on this row and on the rows above and below, not at the ends.
        let up = above;
        let inner = match (up, down) {
            (Some(u), Some(d)) => {
                Some(((first + 1).max(u.0).max(d.0), (last - 1).min(u.1).min(d.1)))
            }
            _ => None,
        };
        match inner.filter(|(a, b)| a <= b) {
            Some((a, b)) => {
                clip.push(out, y, first, a - 1);
                clip.push(out, y, b + 1, last);
            }
            None => clip.push(out, y, first, last),
        }
    }
    examined
}

/// A filled triangle: the pixel centres inside it or on its edges. A triangle with no area
/// is drawn as its three edges. Returns the rows examined (for a flat one, its edges'
/// length in 8-pixel runs).
pub(crate) fn triangle_fill(clip: &Clip, points: [(i64, i64); 3], out: &mut Vec<Span>) -> u64 {
    let [p0, mut p1, mut p2] = points;
    let cross = |a: (i64, i64), b: (i64, i64), c: (i64, i64)| {
        i128::from(b.0 - a.0) * i128::from(c.1 - a.1)
            - i128::from(b.1 - a.1) * i128::from(c.0 - a.0)
    };
    let area = cross(p0, p1, p2);
    if area == 0 {
        return triangle_outline(clip, points, out).div_ceil(8);
    }
    if area < 0 {
        std::mem::swap(&mut p1, &mut p2);
    }
    let edges = [(p0, p1), (p1, p2), (p2, p0)];
    let top = p0.1.min(p1.1).min(p2.1);
    let bottom = p0.1.max(p1.1).max(p2.1);
    let left = p0.0.min(p1.0).min(p2.0);
    let right = p0.0.max(p1.0).max(p2.0);
    let rows = clip.box_rows((left, top), (right, bottom));
    let examined = rows.clone().count() as u64;
    'rows: for y in rows {
        let (mut first, mut last) = (i128::MIN, i128::MAX);
        for (a, b) in edges {
            // Inside: cross(b - a, p - a) >= 0, which on row y is k * x + m >= 0.
            let k = -i128::from(b.1 - a.1);
            let m = i128::from(b.0 - a.0) * i128::from(y - a.1)
                + i128::from(b.1 - a.1) * i128::from(a.0);
            match k.cmp(&0) {
                std::cmp::Ordering::Greater => {
                    first = first.max((-m).div_euclid(k) + i128::from((-m).rem_euclid(k) != 0))
                }
                std::cmp::Ordering::Less => last = last.min(m.div_euclid(-k)),
                std::cmp::Ordering::Equal if m < 0 => continue 'rows,
                std::cmp::Ordering::Equal => {}
            }
        }
        if first <= last {
            let cut = |v: i128| v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
            clip.push(out, y, cut(first), cut(last));
        }
    }
    examined
}

/// A triangle's outline: its three edges as lines. Returns their length in pixels.
pub(crate) fn triangle_outline(
    clip: &Clip,
    [p0, p1, p2]: [(i64, i64); 3],
    out: &mut Vec<Span>,
) -> u64 {
    line(clip, p0, p1, out) + line(clip, p1, p2, out) + line(clip, p2, p0, out)
}

#[cfg(test)]
mod tests;
