//! Display filters: how the window and the web page draw the console's 256x256 picture on a
//! bigger screen (sharp, a CRT's scanlines, a handheld LCD's grid, or sharp-bilinear). They are
//! applied where the picture is shown, on the GPU; the machine's framebuffer, hashes,
//! screenshots, GIFs and movies always keep the console's exact pixels.
//!
//! Every filter's parameters live here, with their defaults: the window's shader reads them
//! as uniforms, and `kairo export --web` writes them into the page for its WebGL shader.

use serde::{Deserialize, Serialize};

/// A display filter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DisplayFilter {
    /// Sharp integer scaling, letterboxed: every console pixel is an exact square of screen
    /// pixels.
    #[default]
    None,
    /// A CRT: dark scanlines between the console's rows, a soft horizontal beam, slight
    /// curvature and vignette; colours kept.
    Crt,
    /// A handheld's LCD: a dark grid between the console's pixels.
    Lcd,
    /// Sharp-bilinear: the picture fills the window at any scale, each pixel crisp, with only
    /// the edges between pixels blended.
    Smooth,
}

impl DisplayFilter {
    /// Every filter, in the order F10 and the pause menu's "Display" cycle them.
    pub const ALL: [DisplayFilter; 4] = [
        DisplayFilter::None,
        DisplayFilter::Crt,
        DisplayFilter::Lcd,
        DisplayFilter::Smooth,
    ];

    /// The filter's name, as `--filter`, the config and the page's `#filter=` take it.
    pub fn name(self) -> &'static str {
        match self {
            DisplayFilter::None => "none",
            DisplayFilter::Crt => "crt",
            DisplayFilter::Lcd => "lcd",
            DisplayFilter::Smooth => "smooth",
        }
    }

    /// The filter named `name`, or an error listing the names.
    pub fn parse(name: &str) -> Result<DisplayFilter, String> {
        DisplayFilter::ALL
            .into_iter()
            .find(|f| f.name() == name.trim().to_ascii_lowercase())
            .ok_or_else(|| {
                let names: Vec<&str> = DisplayFilter::ALL.iter().map(|f| f.name()).collect();
                format!(
                    "unknown display filter {name:?}: choose {}",
                    names.join(", ")
                )
            })
    }

    /// The filter after this one (F10, the pause menu).
    pub fn next(self) -> DisplayFilter {
        let at = DisplayFilter::ALL
            .iter()
            .position(|f| *f == self)
            .unwrap_or(0);
        DisplayFilter::ALL[(at + 1) % DisplayFilter::ALL.len()]
    }

    /// Whether the picture is drawn at a whole-number scale (letterboxed), rather than
    /// filling the window with the console's aspect (1:1) kept.
    pub fn integer_scale(self) -> bool {
        matches!(self, DisplayFilter::None | DisplayFilter::Lcd)
    }
}

impl std::fmt::Display for DisplayFilter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for DisplayFilter {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DisplayFilter::parse(s)
    }
}

/// The parameters of every filter, with defaults that look right at 3x and 4x. Strengths are
/// 0.0 (no effect) to 1.0.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct FilterParams {
    /// CRT: how dark the gap between two console rows is (1.0: black).
    pub crt_scanline: f32,
    /// CRT: how far the beam spreads sideways, in console pixels (0: sharp columns).
    pub crt_beam: f32,
    /// CRT: how much the picture bulges (0: flat; 0.03 is a slight curve).
    pub crt_curvature: f32,
    /// CRT: how much the corners darken.
    pub crt_vignette: f32,
    /// CRT: the brightness boost that makes up for the dark scanlines (1.0: none).
    pub crt_brightness: f32,
    /// LCD: how dark the grid lines between pixels are (1.0: black).
    pub lcd_grid: f32,
    /// LCD: the grid line's width as a fraction of one console pixel.
    pub lcd_line: f32,
}

impl Default for FilterParams {
    fn default() -> FilterParams {
        FilterParams {
            crt_scanline: 0.45,
            crt_beam: 0.35,
            crt_curvature: 0.03,
            crt_vignette: 0.25,
            crt_brightness: 1.15,
            lcd_grid: 0.35,
            lcd_line: 0.25,
        }
    }
}

impl FilterParams {
    /// The parameters as a JSON object, for the exported web page.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("plain numbers always serialize")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_cycle() {
        for f in DisplayFilter::ALL {
            assert_eq!(DisplayFilter::parse(f.name()), Ok(f));
        }
        assert_eq!(DisplayFilter::parse(" CRT "), Ok(DisplayFilter::Crt));
        let err = DisplayFilter::parse("blur").unwrap_err();
        assert!(err.contains("none, crt, lcd, smooth"), "{err}");
        let mut f = DisplayFilter::None;
        let mut seen = vec![];
        for _ in 0..4 {
            seen.push(f);
            f = f.next();
        }
        assert_eq!(seen, DisplayFilter::ALL);
        assert_eq!(f, DisplayFilter::None);
    }

    #[test]
    fn params_serialize_every_field() {
        let json = FilterParams::default().to_json();
        for key in [
            "crt_scanline",
            "crt_beam",
            "crt_curvature",
            "lcd_grid",
            "lcd_line",
        ] {
            assert!(json.contains(key), "{json}");
        }
    }
}
