//! The video stress workload of `kairo bench video-stress` and the criterion benches: 1024
//! patterned tiles, four 64x64-cell layers scrolling, all 256 sprites moving, composed and
//! turned into RGBA every frame. It sets the unit up directly, as no cart could in one frame.

use super::Video;
use super::cell::Cell;
use super::framebuffer::Framebuffer;
use super::sprite::Sprite;
use crate::spec::{BG_LAYERS, OAM_ENTRIES, SCREEN_H, SCREEN_W};

/// The video unit and buffers set up for the stress workload.
pub struct VideoStress {
    pub video: Video,
    pub framebuffer: Framebuffer,
    pub rgba: Vec<u8>,
}

impl Default for VideoStress {
    fn default() -> Self {
        VideoStress::new()
    }
}

impl VideoStress {
    /// 1024 patterned tiles (about one pixel in 16 transparent), four 64x64-cell layers.
    pub fn new() -> VideoStress {
        let mut video = Video::default();
        for tile in 0..1024 {
            for y in 0..8 {
                for x in 0..8 {
                    let color = (tile / 16 + tile + (x ^ y) + y) % 16;
                    video.patterns.set_pixel(tile, x, y, color as u8);
                }
            }
        }
        for (i, layer) in video.layers.iter_mut().enumerate() {
            layer.enabled = true;
            layer.configure(64, 64, 8).expect("valid size");
            for cy in 0..64 {
                for cx in 0..64 {
                    let tile = ((cx * 7 + cy * 3) % 32 + ((cx + cy * 5) % 32) * 32) as u32;
                    let cell = Cell::new(tile, (i + cx as usize) as u8 % 16, false, false);
                    layer.set_cell(cx, cy, cell).expect("inside");
                }
            }
        }
        VideoStress {
            video,
            framebuffer: Framebuffer::default(),
            rgba: vec![0; SCREEN_W * SCREEN_H * 4],
        }
    }

    /// Moves everything for frame `f`, composes and converts to RGBA.
    pub fn frame(&mut self, f: i32) {
        for (i, layer) in self.video.layers.iter_mut().enumerate().take(BG_LAYERS) {
            layer.scroll_x = (f * (i as i32 + 1)) % 512;
            layer.scroll_y = (f * i as i32) % 512;
        }
        for i in 0..OAM_ENTRIES as i32 {
            let x = (i * 37 + f) % 272 - 16;
            let y = (i * 91 + f * 2) % 272 - 16;
            let tile = ((i % 8) * 2 + (i / 8 % 8) * 32) as u32;
            self.video.oam[i as usize] = Sprite::new(x, y, tile, 2).expect("size 2");
        }
        self.video.compose(&mut self.framebuffer, &[]);
        self.framebuffer
            .to_rgba(&self.video.palette, &mut self.rgba);
    }
}
