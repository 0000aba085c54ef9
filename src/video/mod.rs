//! The video unit: palette RAM, pattern VRAM, four background layers, 256 sprites, the
//! overlay and the system font, composited into a 256x256 indexed framebuffer once per frame.
//!
//! Draw order, back to front: the backdrop; then for each priority 0..=3 the layers of that
//! priority (layer 3 first, so layer 0 ends in front) and then the sprites of that priority
//! (highest OAM index first, so sprite 0 ends in front), then the bullet layer if it has that
//! priority; then the overlay. The bullet layer's drawing is paid for by the bullet unit.
//! See `docs/hardware.md` ("Video").

pub mod anim;
pub mod cell;
pub mod font;
pub mod framebuffer;
pub mod layer;
pub mod overlay;
pub mod palette;
pub mod patterns;
pub mod sprite;

use crate::spec::{BG_LAYERS, OAM_ENTRIES, PRIORITY_LEVELS, cost};
use anim::TileAnimations;
use framebuffer::Framebuffer;
use layer::BgLayer;
use overlay::Overlay;
use palette::PaletteRam;
use patterns::PatternVram;
use sprite::Sprite;

/// All state of the video unit.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Video {
    pub palette: PaletteRam,
    pub patterns: PatternVram,
    pub layers: [BgLayer; BG_LAYERS],
    /// Animated tiles of the background layers.
    pub anims: TileAnimations,
    #[serde(with = "crate::serde_array::boxed")]
    pub oam: Box<[Sprite; OAM_ENTRIES]>,
    pub overlay: Overlay,
    /// The bullet layer: drawn at `bullet_priority`, in front of the sprites of that
    /// priority, from the list the bullet unit hands over each frame.
    pub bullets: Vec<Sprite>,
    pub bullet_priority: u8,
}

impl Default for Video {
    fn default() -> Self {
        Video {
            palette: PaletteRam::default(),
            patterns: PatternVram::default(),
            layers: Default::default(),
            anims: TileAnimations::default(),
            oam: Box::new([Sprite::default(); OAM_ENTRIES]),
            overlay: Overlay::default(),
            bullets: Vec::new(),
            bullet_priority: 2,
        }
    }
}

/// Work the compositor did for one frame, for cycle accounting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ComposeWork {
    pub layers: u64,
    pub line_scroll_layers: u64,
    pub sprites: u64,
    pub sprite_rows: u64,
    /// Cycles of each layer (its layer cost and line-scroll cost), by layer number.
    pub layer_cycles: [u64; BG_LAYERS],
}

impl ComposeWork {
    /// Cycles this work costs the video unit.
    pub fn cycles(&self) -> u64 {
        self.layer_cycles.iter().sum::<u64>() + self.sprite_cycles()
    }

    /// Cycles of the sprites and their rows.
    pub fn sprite_cycles(&self) -> u64 {
        self.sprites * cost::SPRITE + self.sprite_rows * cost::SPRITE_ROW
    }
}

impl Video {
    /// Composites layers, sprites and the overlay into `fb`.
    pub fn compose(&self, fb: &mut Framebuffer) -> ComposeWork {
        let mut work = ComposeWork::default();
        fb.clear();
        for priority in 0..PRIORITY_LEVELS as u8 {
            for (number, layer) in self.layers.iter().enumerate().rev() {
                if layer.enabled && layer.priority == priority {
                    layer.render(&self.patterns, &self.anims, fb);
                    let line_scroll = layer.has_line_scroll();
                    work.layers += 1;
                    work.line_scroll_layers += u64::from(line_scroll);
                    work.layer_cycles[number] +=
                        cost::LAYER + u64::from(line_scroll) * cost::LINE_SCROLL;
                }
            }
            for sprite in self.oam.iter().rev() {
                if sprite.priority == priority && sprite.on_screen() {
                    work.sprites += 1;
                    work.sprite_rows += sprite.render(&self.patterns, fb);
                }
            }
            if self.bullet_priority == priority {
                for bullet in &self.bullets {
                    bullet.render(&self.patterns, fb);
                }
            }
        }
        self.overlay.render(fb);
        work
    }

    /// Starts a machine frame: the overlay holds one frame's shapes.
    pub fn begin_frame(&mut self) {
        self.overlay.clear();
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
    pub fn clear_sprites(&mut self) {
        for sprite in self.oam.iter_mut() {
            sprite.visible = false;
        }
    }
}

#[cfg(test)]
mod tests;
