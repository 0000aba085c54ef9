//! The video unit: palette RAM, pattern VRAM, four background layers, 256 sprites, the
//! drawing plane and the fonts, composited into a 256x256 indexed framebuffer once per frame.
//!
//! Draw order, back to front: the backdrop (or the colour of this frame's `cls`); then for each priority 0..=3 the layers of that
//! priority (layer 3 first, so layer 0 ends in front), the drawings of that priority (in the
//! order drawn), the sprites of that priority (highest OAM index first, so sprite 0 ends in
//! front), then the bullet layer if it has that priority; last, the drawings at priority 4
//! (the default: in front of everything). The bullet layer's drawing is paid for by the
//! bullet unit. A cart with a canvas (`plane = "canvas"`) has its drawings painted into the
//! canvas in call order as each frame ends, and the canvas composited as one picture at the
//! drawing priority in place of the drawings. See `docs/hardware.md` ("Video").

pub mod anim;
pub mod canvas;
pub mod cell;
pub mod font;
pub mod fonts;
pub mod framebuffer;
pub mod layer;
pub mod palette;
pub mod patterns;
pub mod plane;
pub(crate) mod raster;
pub mod sprite;
pub mod stress;

use crate::spec::{BG_LAYERS, OAM_ENTRIES, PRIORITY_LEVELS, cost};
use anim::TileAnimations;
use canvas::Canvas;
use fonts::Font;
use framebuffer::Framebuffer;
use layer::BgLayer;
use palette::PaletteRam;
use patterns::PatternVram;
use plane::{DrawingPlane, FRONT};
use sprite::Sprite;

/// All state of the video unit.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Video {
    pub(crate) palette: PaletteRam,
    pub(crate) patterns: PatternVram,
    pub(crate) layers: [BgLayer; BG_LAYERS],
    /// Animated tiles of the background layers.
    pub(crate) anims: TileAnimations,
    #[serde(with = "crate::serde_array::boxed")]
    pub(crate) oam: Box<[Sprite; OAM_ENTRIES]>,
    /// What `cls`, `print`, the shape functions and `blit` drew this frame, and their state.
    pub(crate) plane: DrawingPlane,
    /// The canvas, on a cart that draws on one (`plane = "canvas"`): the drawings of every
    /// frame painted into it, kept until `cls`.
    pub(crate) canvas: Option<Box<Canvas>>,
    /// Sprites `sprite` could not place this frame because OAM was full (a count for the
    /// frame's report, not state).
    #[serde(skip)]
    pub(crate) sprites_dropped: u32,
    /// The next OAM entry `sprite` tries to borrow, downwards.
    next_lend: u16,
    /// The bullet layer: drawn at `bullet_priority`, in front of the sprites of that
    /// priority, from the list the bullet unit hands over each frame (derived, so not part
    /// of a state).
    #[serde(skip)]
    pub(crate) bullets: Vec<Sprite>,
    pub(crate) bullet_priority: u8,
}

impl Default for Video {
    fn default() -> Self {
        Video {
            palette: PaletteRam::default(),
            patterns: PatternVram::default(),
            layers: Default::default(),
            anims: TileAnimations::default(),
            oam: Box::new([Sprite::default(); OAM_ENTRIES]),
            plane: DrawingPlane::default(),
            canvas: None,
            sprites_dropped: 0,
            next_lend: OAM_ENTRIES as u16 - 1,
            bullets: Vec::new(),
            bullet_priority: 2,
        }
    }
}

/// Work the compositor did for one frame, for cycle accounting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct ComposeWork {
    pub layers: u64,
    pub(crate) line_scroll_layers: u64,
    pub sprites: u64,
    pub(crate) sprite_rows: u64,
    /// Cycles of each layer (its layer cost and line-scroll cost), by layer number.
    pub(crate) layer_cycles: [u64; BG_LAYERS],
    /// Whether a canvas was composited.
    pub(crate) canvas: bool,
}

impl ComposeWork {
    /// Cycles this work costs the video unit.
    pub fn cycles(&self) -> u64 {
        self.layer_cycles.iter().sum::<u64>()
            + self.sprite_cycles()
            + u64::from(self.canvas) * cost::CANVAS
    }

    /// Cycles of the sprites and their rows.
    pub(crate) fn sprite_cycles(&self) -> u64 {
        self.sprites * cost::SPRITE + self.sprite_rows * cost::SPRITE_ROW
    }
}

impl Video {
    /// Palette RAM.
    pub fn palette(&self) -> &PaletteRam {
        &self.palette
    }

    /// Pattern VRAM: the tiles.
    pub fn patterns(&self) -> &PatternVram {
        &self.patterns
    }

    /// The background layers.
    pub fn layers(&self) -> &[BgLayer; BG_LAYERS] {
        &self.layers
    }

    /// OAM: the sprite table.
    pub fn oam(&self) -> &[Sprite; OAM_ENTRIES] {
        &self.oam
    }

    /// Palette RAM, for tools and tests that set the hardware up directly.
    pub fn palette_mut(&mut self) -> &mut PaletteRam {
        &mut self.palette
    }

    /// Pattern VRAM, for tools and tests that set the hardware up directly.
    pub fn patterns_mut(&mut self) -> &mut PatternVram {
        &mut self.patterns
    }

    /// The BG layers, for tools and tests that set the hardware up directly.
    pub fn layers_mut(&mut self) -> &mut [BgLayer; BG_LAYERS] {
        &mut self.layers
    }

    /// The tile animations.
    pub fn anims(&self) -> &TileAnimations {
        &self.anims
    }

    /// Composites layers, drawings and sprites into `fb`; text in the cart's own fonts is
    /// drawn with `cart_fonts`.
    pub(crate) fn compose(&self, fb: &mut Framebuffer, cart_fonts: &[Font]) -> ComposeWork {
        self.compose_into(Some(fb), cart_fonts)
    }

    /// The work [`Video::compose`] does, without drawing: for frames nobody sees (a replay
    /// to a state or a rewind), which still pay for it.
    pub(crate) fn compose_work(&self) -> ComposeWork {
        // What composing counts, in one pass over the layers and one over OAM: the order
        // composing draws in does not change the sums.
        let mut work = ComposeWork {
            canvas: self.canvas.is_some(),
            ..ComposeWork::default()
        };
        let shown = |priority: u8| usize::from(priority) < PRIORITY_LEVELS;
        for (number, layer) in self.layers.iter().enumerate() {
            if layer.enabled && shown(layer.priority) {
                let line_scroll = layer.has_line_scroll();
                work.layers += 1;
                work.line_scroll_layers += u64::from(line_scroll);
                work.layer_cycles[number] +=
                    cost::LAYER + u64::from(line_scroll) * cost::LINE_SCROLL;
            }
        }
        for sprite in self.oam.iter() {
            if shown(sprite.priority) && sprite.on_screen() {
                work.sprites += 1;
                work.sprite_rows += sprite.tile_rows();
            }
        }
        work
    }

    fn compose_into(&self, mut fb: Option<&mut Framebuffer>, cart_fonts: &[Font]) -> ComposeWork {
        let mut work = ComposeWork {
            canvas: self.canvas.is_some(),
            ..ComposeWork::default()
        };
        // The drawings of `priority`: the canvas, on a cart with one, at the drawing priority.
        let drawings = |priority: u8, fb: &mut Framebuffer| match &self.canvas {
            Some(canvas) => {
                if self.plane.state.priority.min(FRONT) == priority {
                    canvas.compose(fb);
                }
            }
            None => self.plane.render(priority, fb, &self.patterns, cart_fonts),
        };
        if let Some(fb) = fb.as_deref_mut() {
            match self.plane.background {
                Some(color) => fb.fill(color),
                None => fb.clear(),
            }
        }
        for priority in 0..PRIORITY_LEVELS as u8 {
            for (number, layer) in self.layers.iter().enumerate().rev() {
                if layer.enabled && layer.priority == priority {
                    if let Some(fb) = fb.as_deref_mut() {
                        layer.render(&self.patterns, &self.anims, fb);
                    }
                    let line_scroll = layer.has_line_scroll();
                    work.layers += 1;
                    work.line_scroll_layers += u64::from(line_scroll);
                    work.layer_cycles[number] +=
                        cost::LAYER + u64::from(line_scroll) * cost::LINE_SCROLL;
                }
            }
            if let Some(fb) = fb.as_deref_mut() {
                drawings(priority, fb);
            }
            for sprite in self.oam.iter().rev() {
                if sprite.priority == priority && sprite.on_screen() {
                    work.sprites += 1;
                    work.sprite_rows += match fb.as_deref_mut() {
                        Some(fb) => sprite.render(&self.patterns, fb),
                        None => sprite.tile_rows(),
                    };
                }
            }
            if let Some(fb) = fb.as_deref_mut()
                && self.bullet_priority == priority
            {
                for bullet in &self.bullets {
                    bullet.render(&self.patterns, fb);
                }
            }
        }
        if let Some(fb) = fb {
            drawings(FRONT, fb);
        }
        work
    }

    /// Ends a machine frame's drawing: on a cart with a canvas, the frame's drawings are
    /// painted into it in the order they were made (whether the frame is shown or not).
    pub(crate) fn end_frame(&mut self, cart_fonts: &[Font]) {
        if let Some(canvas) = &mut self.canvas {
            self.plane.paint(canvas, &self.patterns, cart_fonts);
        }
    }

    /// The video unit of a cart with a canvas (`plane = "canvas"`), as it powers on.
    pub fn with_canvas(mut self) -> Video {
        self.canvas = Some(Box::default());
        self
    }

    /// The canvas, on a cart with one.
    pub fn canvas(&self) -> Option<&Canvas> {
        self.canvas.as_deref()
    }

    /// Starts a machine frame: the drawing plane and the lent sprites hold one frame's
    /// drawings.
    pub fn begin_frame(&mut self) {
        self.plane.clear();
        self.release_lent_sprites();
        self.sprites_dropped = 0;
    }

    /// `cls`: forgets this frame's drawings and lent sprites, resets the clip and, given a
    /// colour, makes it this frame's background, behind everything. On a cart with a canvas,
    /// the canvas is filled with the colour (through the draw palette), or without one left
    /// with nothing drawn.
    pub fn cls(&mut self, color: Option<u8>) {
        self.release_lent_sprites();
        let color = color.map(|c| self.plane.palette.get(c));
        match &mut self.canvas {
            Some(canvas) => {
                self.plane.cls(None);
                canvas.clear(color);
            }
            None => self.plane.cls(color),
        }
    }

    /// Hides every lent sprite and starts lending from the last OAM entry again.
    fn release_lent_sprites(&mut self) {
        for sprite in self.oam.iter_mut().filter(|s| s.lent) {
            *sprite = Sprite::default();
        }
        self.next_lend = OAM_ENTRIES as u16 - 1;
    }

    /// Shows `sprite` for this frame in an OAM entry nobody shows, searching down from the
    /// last; returns the entry, or `None` (and counts a dropped sprite) when all are in use.
    pub(crate) fn lend_sprite(&mut self, sprite: Sprite) -> Option<usize> {
        let mut i = usize::from(self.next_lend);
        loop {
            if !self.oam[i].visible {
                self.oam[i] = Sprite {
                    lent: true,
                    ..sprite
                };
                self.next_lend = i.saturating_sub(1) as u16;
                return Some(i);
            }
            if i == 0 {
                self.next_lend = 0;
                self.sprites_dropped = self.sprites_dropped.saturating_add(1);
                return None;
            }
            i -= 1;
        }
    }

    /// Sets OAM entry `i` (entries past the last are ignored).
    pub fn set_sprite(&mut self, i: usize, sprite: Sprite) {
        if let Some(slot) = self.oam.get_mut(i) {
            *slot = sprite;
        }
    }

    /// Hides OAM entry `i`.
    pub fn hide_sprite(&mut self, i: usize) {
        if let Some(slot) = self.oam.get_mut(i) {
            slot.visible = false;
        }
    }

    /// Hides every sprite.
    pub(crate) fn clear_sprites(&mut self) {
        for sprite in self.oam.iter_mut() {
            sprite.visible = false;
        }
    }
}

#[cfg(test)]
mod tests;
