//! `kairo export CART --web OUT_DIR`: a folder that plays the cart in a web browser, from any
//! static web server or a zip upload (itch.io and the like).
//!
//! The folder holds the page (`index.html`, `kairo.js`), the WebAssembly machine
//! (`kairo_web.js`, `kairo_web.wasm`: built from this crate by `web/build.sh` and shipped in
//! `web/dist/`, so exporting needs no web toolchain) and the cart packed as `cart.kcart`. The
//! page's `index.html#hash=N` logs `hash <16 hex>` as `kairo headless --frames N --hash` does.
//!
//! The page plays online in rooms of a lobby server (`kairo lobby`): the exported `kairo.js`
//! begins with the room client (`web/page/rooms.js`), and the lobby server, STUN servers and
//! TURN server given at export (`--lobby`, `--stun`, `--turn`) are written into `index.html`.
//! A TURN server's user name and password are written only when given (`--turn-user`,
//! `--turn-password`): then anyone who has the page can read them.
//!
//! The page draws the picture through a display filter (`web/page/display.js`, exported in
//! `kairo.js` after the room client): the filters' parameters are written into `index.html`
//! from [`FilterParams::default`], the one place they are set.

use std::path::{Path, PathBuf};

use crate::cart::files::CartFiles;
use crate::cart::{CartErrors, kcart};
use crate::error::{Result, ToolError};
use crate::views::display_filter::FilterParams;

/// The page, with `{{TITLE}}`, `{{SAVE_ID}}`, `{{LOBBY}}`, `{{STUN}}`, the `{{TURN...}}`
/// settings and `{{FILTER_PARAMS}}` to fill in.
const PAGE: &str = include_str!("../../web/page/index.html");
/// The page's host script: canvas, keys, pads, sound, pacing, storage, playing online.
const HOST_JS: &[u8] = include_bytes!("../../web/page/kairo.js");
/// The room client (a lobby server's WebSocket, WebRTC data channels), exported at the
/// start of `kairo.js`.
const ROOMS_JS: &[u8] = include_bytes!("../../web/page/rooms.js");
/// The display filters' WebGL pass, exported in `kairo.js` after the room client.
const DISPLAY_JS: &[u8] = include_bytes!("../../web/page/display.js");
/// The machine compiled to WebAssembly, and its loader.
pub const RUNTIME_JS: &[u8] = include_bytes!("../../web/dist/kairo_web.js");
pub const RUNTIME_WASM: &[u8] = include_bytes!("../../web/dist/kairo_web.wasm");

/// Where the page plays online, set at export.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Online {
    /// The lobby server's URL (`ws://HOST:PORT` or `wss://...`); none: the player types it.
    pub lobby: Option<String>,
    /// STUN servers' URLs (`stun:HOST:PORT`); empty: the standard one, as `kairo netplay`
    /// uses; `none` alone: none (only the machine's own addresses are offered).
    pub stun: Vec<String>,
    /// A TURN server's URL (`turn:HOST:PORT`), and its user name and password; none: the
    /// page relays through none unless its fragment names one.
    pub turn: Option<String>,
    pub turn_user: Option<String>,
    pub turn_password: Option<String>,
}

/// Checks a lobby server's URL for `--lobby`, as `kairo netplay` checks `--server`.
pub fn check_lobby(url: &str) -> std::result::Result<String, String> {
    let rest = url
        .strip_prefix("ws://")
        .or_else(|| url.strip_prefix("wss://"));
    match rest {
        Some(rest) if !rest.is_empty() && !rest.starts_with('/') => Ok(url.to_string()),
        _ => Err(format!(
            "{url:?}: give the lobby server's URL as ws://HOST:PORT (wss:// behind TLS)"
        )),
    }
}

/// Checks a STUN server's URL for `--stun` (`stun:HOST:PORT`, or `none`).
pub fn check_stun(url: &str) -> std::result::Result<String, String> {
    let fits = url == "none"
        || ((url.starts_with("stun:") || url.starts_with("stuns:")) && !url.contains(','));
    if fits {
        Ok(url.to_string())
    } else {
        Err(format!(
            "{url:?}: a STUN server is stun:HOST:PORT (or `none`)"
        ))
    }
}

/// Checks a TURN server's URL for `--turn` (`turn:HOST:PORT` or `turns:HOST:PORT`).
pub fn check_turn(url: &str) -> std::result::Result<String, String> {
    let rest = url
        .strip_prefix("turn:")
        .or_else(|| url.strip_prefix("turns:"));
    match rest {
        Some(rest) if !rest.is_empty() && !url.contains(',') => Ok(url.to_string()),
        _ => Err(format!(
            "{url:?}: a TURN server is turn:HOST:PORT or turns:HOST:PORT"
        )),
    }
}

/// What an export wrote: each file with its size in bytes.
#[derive(Debug, Default)]
pub struct Exported {
    pub files: Vec<(PathBuf, usize)>,
}

impl Exported {
    /// Bytes a browser downloads to play the cart.
    pub fn total(&self) -> usize {
        self.files.iter().map(|(_, n)| n).sum()
    }
}

/// Exports the cart at `cart` (a folder or a `.kcart`) into `out`, creating the folder and
/// replacing the files it writes there. A cart with problems is refused, as `kairo pack`
/// refuses it.
pub fn export_web(cart: &Path, out: &Path) -> Result<Exported> {
    export_web_online(cart, out, &Online::default())
}

/// [`export_web`], with the page's lobby server and STUN servers.
pub fn export_web_online(cart: &Path, out: &Path, online: &Online) -> Result<Exported> {
    let files = CartFiles::open(cart)?;
    let loaded = crate::commands::check::static_check(files.clone())
        .map_err(|problems| ToolError::NotPacked(CartErrors(problems)))?;
    let packed = kcart::pack(files.iter())?;
    let page = PAGE
        .replace("{{TITLE}}", &html_escape(loaded.name()))
        .replace(
            "{{SAVE_ID}}",
            &html_escape(loaded.manifest.save_id.as_deref().unwrap_or("")),
        )
        .replace(
            "{{LOBBY}}",
            &html_escape(online.lobby.as_deref().unwrap_or("")),
        )
        .replace("{{STUN}}", &html_escape(&online.stun.join(",")))
        .replace(
            "{{TURN}}",
            &html_escape(online.turn.as_deref().unwrap_or("")),
        )
        .replace(
            "{{TURN_USER}}",
            &html_escape(online.turn_user.as_deref().unwrap_or("")),
        )
        .replace(
            "{{TURN_PASSWORD}}",
            &html_escape(online.turn_password.as_deref().unwrap_or("")),
        )
        .replace(
            "{{FILTER_PARAMS}}",
            &html_escape(&FilterParams::default().to_json()),
        );
    let host = [ROOMS_JS, b"\n", DISPLAY_JS, b"\n", HOST_JS].concat();
    std::fs::create_dir_all(out).map_err(ToolError::write(out))?;
    let mut exported = Exported::default();
    for (name, bytes) in [
        ("index.html", page.as_bytes()),
        ("kairo.js", &host[..]),
        ("kairo_web.js", RUNTIME_JS),
        ("kairo_web.wasm", RUNTIME_WASM),
        ("cart.kcart", &packed[..]),
    ] {
        let path = out.join(name);
        crate::fsutil::write_atomic(&path, bytes).map_err(ToolError::write(&path))?;
        exported.files.push((path, bytes.len()));
    }
    Ok(exported)
}

/// `text` safe inside HTML text and double-quoted attributes.
fn html_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_escaped_for_the_page() {
        assert_eq!(
            html_escape("<b>\"Tom & Jerry's\"</b>"),
            "&lt;b&gt;&quot;Tom &amp; Jerry&#39;s&quot;&lt;/b&gt;"
        );
    }

    #[test]
    fn the_page_has_the_places_export_fills_and_loads_what_export_writes() {
        for place in [
            "{{TITLE}}",
            "{{SAVE_ID}}",
            "{{LOBBY}}",
            "{{STUN}}",
            "{{FILTER_PARAMS}}",
        ] {
            assert!(PAGE.contains(place), "{place}");
        }
        for file in ["kairo.js", "kairo_web.js"] {
            assert!(PAGE.contains(&format!("src=\"{file}\"")), "{file}");
        }
        let host = std::str::from_utf8(HOST_JS).expect("UTF-8");
        assert!(host.contains("fetch('cart.kcart')"));
        let runtime = std::str::from_utf8(RUNTIME_JS).expect("UTF-8");
        assert!(runtime.contains("\"kairo_web.wasm\""));
        assert_eq!(&RUNTIME_WASM[..4], b"\0asm");
        let rooms = std::str::from_utf8(ROOMS_JS).expect("UTF-8");
        assert!(rooms.contains("window.KairoRooms"));
        assert!(host.contains("KairoRooms.Room"));
        for export in ["_kairo_net_open", "_kairo_net_tick", "_kairo_net_outgoing"] {
            assert!(runtime.contains(export), "{export}");
        }
    }

    #[test]
    fn the_page_draws_every_filter_with_every_parameter() {
        use crate::views::display_filter::DisplayFilter;
        let display = std::str::from_utf8(DISPLAY_JS).expect("UTF-8");
        assert!(display.contains("window.KairoDisplay"));
        let names: Vec<String> = DisplayFilter::ALL
            .iter()
            .map(|f| format!("'{}'", f.name()))
            .collect();
        let list = format!("const NAMES = [{}];", names.join(", "));
        assert!(display.contains(&list), "display.js should have {list}");
        for filter in DisplayFilter::ALL {
            let integer = format!("{}: {}", filter.name(), filter.integer_scale());
            assert!(
                display.contains(&integer),
                "display.js should have {integer}"
            );
            assert!(
                display.contains(&format!("    {}: `", filter.name())),
                "{filter}"
            );
        }
        let params = serde_json::to_value(FilterParams::default()).unwrap();
        for key in params.as_object().expect("an object").keys() {
            let uniform = format!("uniform float u_{key};");
            assert!(
                display.contains(&uniform),
                "display.js should read {uniform}"
            );
        }
    }

    #[test]
    fn lobby_and_stun_urls_are_checked() {
        for good in ["ws://127.0.0.1:3536", "wss://lobby.example/kairo"] {
            assert!(check_lobby(good).is_ok(), "{good}");
        }
        for bad in ["http://x", "ws://", "ws:///room", "lobby:3536"] {
            assert!(check_lobby(bad).is_err(), "{bad}");
        }
        for good in ["none", "stun:a:1", "stuns:b:2"] {
            assert!(check_stun(good).is_ok(), "{good}");
        }
        for bad in ["turn:x:1", "stun:a:1,stun:b:2", ""] {
            assert!(check_stun(bad).is_err(), "{bad}");
        }
        for good in ["turn:relay.example.org:3478", "turns:r:5349"] {
            assert!(check_turn(good).is_ok(), "{good}");
        }
        for bad in ["stun:a:1", "turn:", "http://r"] {
            assert!(check_turn(bad).is_err(), "{bad}");
        }
    }
}
